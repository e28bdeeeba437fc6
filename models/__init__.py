"""Model-driven work through litellm: the client (retries, cache, cost, budget), the model stages' prompt files, answer parsing,
and the model path of enhancement and composition. Only `client.py` imports litellm, and only when a call
is made, so the offline build never loads it."""
