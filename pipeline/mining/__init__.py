"""Stage 3, mining: classes first committed after the cut-off, from local git repositories and GitHub.

A chain of small filters (`filters`), cheapest first: licence, class shape (`shape`), dependency slice
(`slicing`), effects (`effects`), documentation, and only then the history queries that date a class
(`freshness`). Mined code is parsed, never imported or run outside the sandbox.

The sources are a registry (`sources`: the `Source` protocol; `local.LocalGit`, `github_source.GithubSearch`),
which the mine stage and the run id's snapshot (`snapshot`) go through.
"""
