"""models: the model client every model-driven step goes through (litellm), and what it needs: retries, a
response cache, cost and a budget, the prompt templates of the model stages, answer parsing and checks.
Only `client.py` imports litellm, and only when a call is made, so the offline build never loads it. The
model stages themselves are pipeline/stages/model.py and pipeline/synthesis/model_making.py."""
