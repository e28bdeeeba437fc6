"""A process that ends with a sandbox pool still open (a stopped build's abandoned thread opened it after the
stop closed the others) leaves none of its cgroups, folders or worker processes behind."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from validation.sandbox.cgroups import GROUP, ROOT

SCRIPT = textwrap.dedent('''
    import sys
    from validation.sandbox import SandboxJob, SandboxPool

    pool = SandboxPool(jobs=1)
    run = pool.run(SandboxJob(files={"m.py": "X = 1\\n", "test_m.py": "from m import X\\n\\ndef test_x():\\n    assert X\\n"},
                              test_file="test_m.py"))
    assert run.status == "completed", run.notes
    print(pool.base_dir, flush=True)
    sys.exit(0)  # the pool is never closed
''')


def _leftovers(pid: int) -> list[str]:
    found = [str(p) for p in Path("/tmp").glob(f"classeval-sandbox-{pid}-*")]
    for hierarchy in (ROOT / "pids" / GROUP, ROOT / "memory" / GROUP, ROOT / GROUP):
        found += [str(p) for p in hierarchy.glob(f"p{pid}-*")] if hierarchy.is_dir() else []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and f"classeval-sandbox-{pid}-".encode() in (proc / "cmdline").read_bytes():
                found.append(f"process {proc.name}")
        except OSError:
            continue
    return found


def test_an_unclosed_pool_is_removed_when_its_process_exits():
    done = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=Path(__file__).resolve().parents[2])
    out, err = done.communicate(timeout=300)
    assert done.returncode == 0, err[-2000:]
    assert out.strip().startswith("/")
    assert _leftovers(done.pid) == []
