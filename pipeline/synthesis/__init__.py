"""Offline synthesis: deterministic enhancement and composition of seed classes with libcst, and
oracle-based test generation whose executions all happen inside the validation sandbox."""
