"""register_key: a functionality key between two existing ones, usable everywhere a builtin one
is (scenarios/user_keys.py, in a process of its own)."""

from __future__ import annotations

from ._run import facts


def f():  # noqa: ANN201
    return facts("user_keys.py")


def test_a_dispatch_key_like_the_builtin_ones():
    assert f()["key"] == ["Checkpointing", True, True, True]
    assert f()["parse"] is True


def test_caches_filled_before_the_key_stay_right():
    assert f()["after_warm"] == [True]


def test_key_sets_in_priority_order():
    assert f()["repr"] == "DispatchKeySet(CPU, ADInplaceOrView, Checkpointing, AutogradCPU)"
    assert f()["iter"] == ["CPU", "ADInplaceOrView", "Checkpointing", "AutogradCPU"]
    assert f()["highest"] == ["AutogradCPU", "Checkpointing"]
    assert f()["has"] == [True, False, 4]
    assert f()["repr_two"] == "DispatchKeySet(Checkpointing, AutogradCPU, NanCheck)"


def test_no_alias_covers_it():
    # as PyTorch's layer keys (Python, Functionalize, ADInplaceOrView): no composite fills them
    assert f()["cia_covers"] == [False, False]


def test_full_after_is_what_lies_below():
    # ADInplaceOrView and backends stay, the key itself and Autograd (above it) go
    assert f()["full_after"] == [True, False, False, True]


def test_tls_include_and_exclude_guards():
    assert f()["include_set"] == "DispatchKeySet(BackendSelect, ADInplaceOrView, Checkpointing)"
    assert f()["include_after"] == "DispatchKeySet(BackendSelect, ADInplaceOrView)"
    # below autograd, the layer sees what autograd redispatches; the excluded call is unseen
    assert f()["seen_with_grad"] == ["aten.mul.Tensor", "aten.sum.default"]
    assert f()["grad"] == [3.0, 3.0]


def test_on_a_tensors_key_set():
    assert f()["tensor_keys"] == (
        "DispatchKeySet(CPU, ADInplaceOrView, Checkpointing, AutogradCPU, AutocastCPU)"
    )
    assert f()["tensor_result"] == [2.0, 2.0, 2.0]
    assert f()["seen_tensor"] == ["aten.add.Tensor"]


def test_impl_dump_table_dump_and_trace():
    assert f()["impl"] == [42.0, 42.0]
    assert f()["table_order"] == [
        "ADInplaceOrView",
        "Checkpointing",
        "AutogradOther",
        "AutogradCPU",
    ]
    assert f()["table_row"] == ["kernel]"]
    assert f()["dump"] == ["Checkpointing"]
    assert f()["trace_keys"] == ["AutogradCPU", "Checkpointing", "CPU"]


def test_fallthrough_and_removal_with_the_library():
    assert f()["after_destroy"] == [False, True]  # kernels gone, the key stays
    assert f()["fallthrough"] == [[2.0, 2.0], []]


def test_a_layer_above_autograd_runs_first():
    assert f()["nan_fallthrough_trace"] == ["AutogradCPU", "CPU"]
    assert f()["nan_trace"] == ["NanCheck", "AutogradCPU", "CPU"]


def test_per_backend_keys_get_a_slot_per_backend():
    assert f()["per_backend"] == ["TrackedCPU", "TrackedMeta", "DispatchKeySet(CPU, TrackedCPU)"]
    cpu, meta, ops = f()["per_backend_run"]
    assert cpu == [2.0, 2.0] and meta == [2]
    assert "aten.add.Tensor" in ops  # TrackedCPU's layer ran; TrackedMeta's is a fallthrough
    assert f()["per_backend_new_backend"] == "TrackedToyk"  # a backend registered later


def test_bad_input_is_refused_and_changes_nothing():
    assert f()["errors"] == [
        "RuntimeError: register_key: above='NoSuchKey': could not parse dispatch key: NoSuchKey",
        "RuntimeError: register_key: above='AutogradOther' ranks above below='ADInplaceOrView' "
        "(inverted)",
        "RuntimeError: register_key: a dispatch key named 'Checkpointing' already exists",
        "RuntimeError: register_key: a dispatch key named 'CPU' already exists",
        "ValueError: register_key: give above=, below=, or both (the key's neighbours)",
        "RuntimeError: register_key: above='AutogradCPU' is not a functionality key (name a key "
        "such as 'AutogradFunctionality' or 'ADInplaceOrView', not a per-backend runtime key or "
        "an alias)",
        "RuntimeError: register_key: above='Autograd' is not a functionality key (name a key such "
        "as 'AutogradFunctionality' or 'ADInplaceOrView', not a per-backend runtime key or an "
        "alias)",
        "ValueError: register_key: a dispatch key name must be an identifier, got 'bad name'",
    ]
    assert f()["unchanged"] is True


def test_keys_cli_lists_them():
    assert f()["cli"] == [
        ["Checkpointing", "run-time", "functionality"],
        ["Tracked", "run-time", "per-backend", "functionality"],
    ]
