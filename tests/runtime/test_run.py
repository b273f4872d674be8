"""`keyroute run` and `python -m keyroute script.py`: torch served from keyroute, the script
run as __main__ with its argv, reprs naming torch, clear errors for missing modules."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

ROOT = pathlib.Path(__file__).parents[2]


def _run(tmp_path: pathlib.Path, source: str, *cli: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent(source))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "keyroute", *cli, str(script), "A", "--b"]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)


PROGRAM = """
    import sys
    import torch
    import torch.nn.functional as F
    from torch.nn.modules.linear import Linear
    from torch.utils._pytree import tree_map
    print(sys.argv[1:], __name__)
    print(torch.__name__ == 'keyroute', F is torch.nn.functional, Linear is torch.nn.Linear)
    print(torch.ones(2, dtype=torch.float16), torch.float32, torch.ones(2, 3).shape)
    print(type(torch.ones(1)))
    print(type(Linear(2, 2)), torch.cuda.is_available())
"""

EXPECTED = (
    "['A', '--b'] __main__\n"
    "True True True\n"
    "tensor([1., 1.], dtype=torch.float16) torch.float32 torch.Size([2, 3])\n"
    "<class 'torch.Tensor'>\n"
    "<class 'torch.nn.modules.linear.Linear'> False\n"
)


def test_keyroute_run(tmp_path: pathlib.Path) -> None:
    out = _run(tmp_path, PROGRAM, "run")
    assert out.returncode == 0, out.stderr
    assert out.stdout == EXPECTED


def test_python_m_keyroute_script(tmp_path: pathlib.Path) -> None:
    out = _run(tmp_path, PROGRAM)
    assert out.returncode == 0, out.stderr
    assert out.stdout == EXPECTED


def test_missing_module_names_itself(tmp_path: pathlib.Path) -> None:
    out = _run(tmp_path, "import torch.no_such_module\n", "run")
    assert out.returncode == 1
    assert "ModuleNotFoundError: No module named 'torch.no_such_module'" in out.stderr


def test_exit_status_passes_through(tmp_path: pathlib.Path) -> None:
    out = _run(tmp_path, "import sys\nsys.exit(3)\n", "run")
    assert out.returncode == 3


def test_trace_and_profile_go_to_stderr(tmp_path: pathlib.Path) -> None:
    src = "import torch\nprint((torch.ones(2) * 3).sum().item())\n"
    traced = _run(tmp_path, src, "run", "--trace")
    assert traced.stdout == "6.0\n"
    assert "op=[aten::mul.Tensor]" in traced.stderr
    profiled = _run(tmp_path, src, "run", "--profile")
    assert profiled.stdout == "6.0\n"
    assert "aten::mul" in profiled.stderr and "Self CPU time total" in profiled.stderr
