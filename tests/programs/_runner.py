"""Run programs as `keyroute run` does, importing keyroute once and forking per program.

    python tests/programs/_runner.py OUTDIR NAME [NAME ...]

Each child process runs one program through keyroute.run.run_script (the function behind
`keyroute run`) with its stdout and stderr in OUTDIR/NAME.out / .err and its exit status in
NAME.rc: the same as one `keyroute run NAME.py` per program, without paying keyroute's import
once per program.
"""

from __future__ import annotations

import os
import pathlib
import sys

HERE = pathlib.Path(__file__).parent


def main(outdir: str, names: list[str]) -> None:
    import keyroute  # noqa: F401  (imported once; every child inherits it)
    from keyroute.run import run_script

    out = pathlib.Path(outdir)
    os.chdir(HERE)
    for name in names:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: one program, as `keyroute run NAME.py`
            code = 1
            try:
                with open(out / f"{name}.out", "w") as o, open(out / f"{name}.err", "w") as e:
                    os.dup2(o.fileno(), 1)
                    os.dup2(e.fileno(), 2)
                    sys.stdout = os.fdopen(1, "w", closefd=False)
                    sys.stderr = os.fdopen(2, "w", closefd=False)
                    try:
                        code = run_script(f"{name}.py")
                    except BaseException:  # noqa: BLE001  (the program's own failure)
                        import traceback

                        traceback.print_exc()
                        code = 1
                    sys.stdout.flush()
                    sys.stderr.flush()
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        (out / f"{name}.rc").write_text(str(os.waitstatus_to_exitcode(status)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
