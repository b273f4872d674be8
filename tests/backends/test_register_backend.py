"""register_backend: a backend component beyond PrivateUse1-3, five kernels and the CPU fallback
(scenarios/toy_backend.py, in a process of its own)."""

from __future__ import annotations

from ._run import facts

FALLBACK = (
    "The operator '{}' is not currently supported on the toy backend and will fall back to run "
    "on the CPU. This may have performance implications."
)


def f():  # noqa: ANN201
    return facts("toy_backend.py")


def test_keys_of_the_backend():
    assert f()["info"] == ["toy", 17, "Toy", "AutogradToy", "AutocastToy"]
    assert all(v >= 256 for v in f()["values"])  # beyond PyTorch's enum
    assert f()["tensor_keys"] == "DispatchKeySet(Toy, ADInplaceOrView, AutogradToy, AutocastToy)"
    assert f()["parse"] == ["AutogradToy", "Toy"]


def test_devices_and_factories():
    assert f()["device_strings"] == ["toy:0", "device(type='toy', index=0)"]
    assert f()["factory_device"] == "toy:0"
    assert f()["to_roundtrip"] == ["toy:0", [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], "cpu"]
    assert f()["unknown_device"].startswith("RuntimeError: Expected one of cpu, cuda")


def test_autograd_and_the_whole_operator_set_through_the_fallback():
    assert f()["loss"] == [12.0, "toy:0"]
    assert f()["grad"] == [[[4.0, 4.0, 4.0], [4.0, 4.0, 4.0]], "toy:0"]
    assert f()["matmul"] == [[3.0, 3.0], [3.0, 3.0]]
    assert f()["mixed"] == [3.0, 3.0]  # a CPU 0-dim tensor with a toy one


def test_in_place_and_out_results_come_back_to_the_callers_tensor():
    assert f()["inplace"] == [[6.0, 6.0, 6.0], True, "toy:0"]
    assert f()["out"] == [[5.0, 5.0, 5.0, 5.0], "toy:0"]


def test_the_backends_own_kernels_run():
    # to() and factories go through the backend's allocation and copy_ kernels; empty_like
    # (preserve_format, dense input) allocates with empty_strided, as PyTorch's does
    assert f()["own_kernels"] == ["add", "copy_", "empty", "empty_strided"]


def test_fallback_warns_once_per_operator():
    warnings = f()["warnings"]
    assert warnings.count(FALLBACK.format("aten::exp")) == 1  # exp ran three times
    assert FALLBACK.format("aten::mm") in warnings
    assert not any("aten::add.Tensor" in w for w in warnings)  # a kernel of its own
    view = [w for w in warnings if "aten::t'" in w]
    assert len(view) == 1 and "appears to be a view operator" in view[0]


def test_table_and_composites():
    rows = f()["dump_table_toy"]
    assert [r.split(":")[0] for r in rows] == ["Toy", "AutogradToy", "AutocastToy"]
    assert rows[0].endswith("[kernel]") and rows[1].endswith("[autograd kernel]")
    assert "fallthrough" in rows[2] and rows[2].endswith("[backend fallback]")
    assert f()["to_copy_toy"] == ["Toy:default backend kernel]"]  # CompositeExplicitAutograd


def test_backend_priority_and_repr():
    assert f()["highest_with_meta"] == "Toy"  # run-time backends rank above Meta
    assert f()["keyset_repr_two_backends"] == "DispatchKeySet(CPU, Toy, AutogradCPU, AutogradToy)"


def test_bad_input_is_refused_and_changes_nothing():
    assert f()["errors"] == [
        "RuntimeError: register_backend: device type 'toy' already exists",
        "RuntimeError: register_backend: device type 'cpu' already exists",
        "ValueError: register_backend: a device type is a lower-case identifier, got 'Bad-Name'",
        "RuntimeError: register_backend: device type 'mkldnn' already exists",
    ]
    assert f()["unchanged"] is True
    assert f()["second"] == [18, "Toy2"]


def test_keys_cli_lists_the_backends_keys_once():
    listed = f()["cli_keys"]
    assert len(listed) == len(set(listed))
    assert {"Toy", "AutogradToy", "AutocastToy", "Toy2"} <= set(listed)


def test_autocast_knows_the_device():
    on, low, result, after = f()["autocast"]
    assert on is True and low.endswith(".float16") and result.endswith(".float32")  # no kernels yet
    assert after is False


def test_compiled_results_stay_on_the_backend():
    # the inductor backend's NumPy kernels are for CPU tensors: another device's graph runs
    # through the dispatcher, its results on that device (they came back as CPU tensors)
    assert f()["compiled"] == ["toy:0", [3.0, 3.0, 3.0]]


def test_device_index_comes_from_the_backends_data():
    # PyTorch keeps the index a tensor was made on ("npu:1"): its storage holds the device
    assert f()["device_index"] == [
        "idx:1",
        "device(type='idx', index=1)",
        "idx:1",
        "idx:2",
        "idx:3",
        "idx:0",
        "cpu",
    ]
    assert f()["bare_data_index"] == "toy:0"  # a bare ndarray names no device
