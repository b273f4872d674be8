"""torch.autograd.anomaly_mode: detect_anomaly and set_detect_anomaly, as PyTorch's.

In anomaly mode a node that fails during backward is named in a warning ("Error detected in
MulBackward0. ...") before the error propagates, and with check_nan a node returning NaN raises
"Function 'MulBackward0' returned nan values in its 0th output.".
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from .engine import is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled

__all__ = ["detect_anomaly", "set_detect_anomaly"]


class detect_anomaly:  # noqa: N801 - PyTorch's name
    """Context manager (and decorator) enabling anomaly detection inside."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev = is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should "
            "only be enabled for debugging.",
            stacklevel=2,
        )

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        import functools

        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)

        return wrapped


class set_detect_anomaly:  # noqa: N801 - PyTorch's name
    """Turns anomaly detection on or off: at once when called, undone on exit when used with
    `with`."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = is_anomaly_enabled()
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)
