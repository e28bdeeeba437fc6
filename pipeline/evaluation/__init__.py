"""Evaluation: run a model (or a baseline) on a release or a ClassEval-format file, score every completion
in the sandbox, and report class- and method-level Pass@k and the failure taxonomy.

    tasks, unreadable = load_eval_tasks(Path("artifacts/releases/2026.11.0"))  # unreadable: left out, with why
    settings = EvalSettings(model="openai/m", strategies=("holistic",), n=5, ks=(1, 5))
    with SandboxPool(jobs=2) as pool:
        run = evaluate(tasks, settings, pool, model_asker(ModelClient(cache_dir), "openai/m", temperature=0.8))

Parts, one idea a file: `tasks` (what a solver sees and a grader needs), `strategies` (the five ways of
asking a model), `assemble` (splicing methods into a class), `baselines` (reference, skeleton, mutant),
`scoring` (one sandbox run per completion), `taxonomy` (why a completion failed), `environment` (failing
tests run again where the clock, user and host differ), `passk` (the unbiased estimator), `clusters` (the
family-clustered interval), `samples` (completions made elsewhere), `harness` (the loop and the summary),
`leaderboard` (markdown per release version), `inspect_task` and `inspect_grading` (the same parts as an
Inspect AI task, graded in Inspect's sandbox when it has one). The command is commands/evaluate.py (`eval`).
"""
