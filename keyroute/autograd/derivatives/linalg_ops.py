"""Derivatives of torch.linalg's factorizations (PyTorch's FunctionsManual formulas, derived
anew for real and complex inputs; mH is the adjoint)."""

from __future__ import annotations

from typing import Any

from ._registry import aten, derivative


def _mH(x: Any) -> Any:
    return aten.mH.default(x)


def _mm(a: Any, b: Any) -> Any:
    return aten.matmul.default(a, b)


def _u(x: Any, *dims: int) -> Any:
    for d in dims:
        x = aten.unsqueeze.default(x, d)
    return x


def _inv(x: Any) -> Any:
    return aten.linalg_inv_ex.default(x)[0]


def _diag_embed(v: Any) -> Any:
    return aten.diag_embed.default(v, 0, -2, -1)


@derivative("_linalg_det", "LinalgDetBackward0", save=("A", "result"), n_outputs=3)
def _det(grads, A, result):
    g = grads[0]
    if g is None:
        return (None,)
    # d det / dA = det * A^{-H} (for invertible A), conjugated as the adjoint convention.
    det = aten.conj_physical.default(result) if result.is_complex() else result
    scale = _u(aten.mul.Tensor(g, det), -1, -1)
    return (aten.mul.Tensor(scale, _mH(_inv(A))),)


@derivative(
    "_linalg_slogdet",
    "LinalgSlogdetBackward0",
    save=("A", "result0", "result1"),
    n_outputs=4,
    outputs=(0, 1),
)
def _slogdet(grads, A, result0, result1):
    g = grads[1]
    if g is None:
        return (None,)
    # d log|det A| / dA = A^{-H}.
    return (aten.mul.Tensor(_u(g, -1, -1), _mH(_inv(A))),)


@derivative("linalg_inv_ex", "LinalgInvExBackward0", save=("result",), n_outputs=2)
def _inv_ex(grads, result):
    g = grads[0]
    if g is None:
        return (None,)
    inv_h = _mH(result)
    return (aten.neg.default(_mm(_mm(inv_h, g), inv_h)),)


@derivative(
    "_linalg_solve_ex",
    "LinalgSolveExBackward0",
    save=("A", "left", "result"),
    n_outputs=4,
)
def _solve_ex(grads, A, left, result, needs):
    g = grads[0]
    if g is None:
        return None, None
    from ...aten.linalg_ops import solve_is_vector

    vec = solve_is_vector(tuple(A.shape), tuple(result.shape)) and result.dim() == A.dim() - 1
    gx = aten.unsqueeze.default(g, -1) if vec else g
    x = aten.unsqueeze.default(result, -1) if vec else result
    if left:
        # X = A^{-1} B: gB = A^{-H} gX, gA = -gB X^H.
        gB = aten.linalg_solve.default(_mH(A), gx)
        gA = aten.neg.default(_mm(gB, _mH(x))) if needs[0] else None
    else:
        # X = B A^{-1}: gB = gX A^{-H}, gA = -X^H gB.
        gB = aten.linalg_solve.default(_mH(A), gx, left=False)
        gA = aten.neg.default(_mm(_mH(x), gB)) if needs[0] else None
    if vec:
        gB = aten.squeeze.dim(gB, -1)
    return gA, (gB if needs[1] else None)


def _cholesky_grad(g: Any, L: Any, upper: bool) -> Any:
    if upper:
        L, g = _mH(L), _mH(g)
    # gA = L^{-H} Phi(L^H gL) L^{-1}, symmetrized: Phi keeps the lower triangle, halving
    # its diagonal.
    phi = aten.tril.default(_mm(_mH(L), g))
    phi = aten.sub.Tensor(
        phi, aten.mul.Scalar(_diag_embed(aten.diagonal.default(phi, 0, -2, -1)), 0.5)
    )
    linv = _inv(L)
    gA = _mm(_mm(_mH(linv), phi), linv)
    return aten.mul.Scalar(aten.add.Tensor(gA, _mH(gA)), 0.5)


@derivative(
    "linalg_cholesky_ex", "LinalgCholeskyExBackward0", save=("upper", "result"), n_outputs=2
)
def _cholesky_ex(grads, upper, result):
    if grads[0] is None:
        return (None,)
    return (_cholesky_grad(grads[0], result, upper),)


@derivative("cholesky", "CholeskyBackward0", save=("upper", "result"))
def _cholesky(grad, upper, result):
    return (_cholesky_grad(grad, result, upper),)


def _skew(x: Any) -> Any:
    return aten.sub.Tensor(x, _mH(x))


@derivative(
    "_linalg_eigh", "LinalgEighBackward0", save=("result0", "result1"), n_outputs=2, outputs=(0, 1)
)
def _eigh(grads, result0, result1):
    gL, gV = grads
    L, V = result0, result1
    if gV is None:
        return (_mm(aten.mul.Tensor(V, _u(gL, -2)), _mH(V)),)
    # gA = V (diag(gL) + skew(V^H gV) / 2 / E) V^H, E_ij = L_j - L_i.
    E = aten.sub.Tensor(_u(L, -2), _u(L, -1))
    n = L.shape[-1]
    eye = aten.eye.default(n, dtype=E._dtype)
    E = aten.add.Tensor(E, eye)  # the diagonal is replaced below: any nonzero value
    inner = aten.div.Tensor(aten.mul.Scalar(_skew(_mm(_mH(V), gV)), 0.5), E)
    inner = aten.mul.Tensor(inner, aten.rsub.Scalar(eye, 1))
    if gL is not None:
        inner = aten.add.Tensor(inner, _diag_embed(gL))
    return (_mm(_mm(V, inner), _mH(V)),)


@derivative(
    "_linalg_svd",
    "LinalgSvdBackward0",
    save=("full_matrices", "result0", "result1", "result2"),
    n_outputs=3,
    outputs=(0, 1, 2),
)
def _svd(grads, full_matrices, result0, result1, result2):
    gU, gS, gVh = grads
    U, S, Vh = result0, result1, result2
    k = S.shape[-1]
    if full_matrices and U.dim() and (U.shape[-1] > k or Vh.shape[-2] > k):
        U = aten.narrow.default(U, -1, 0, k)
        Vh = aten.narrow.default(Vh, -2, 0, k)
        if gU is not None:
            gU = aten.narrow.default(gU, -1, 0, k)
        if gVh is not None:
            gVh = aten.narrow.default(gVh, -2, 0, k)
    if gU is None and gVh is None:
        return (_mm(aten.mul.Tensor(U, _u(gS, -2)), Vh),)
    V = _mH(Vh)
    m, n = U.shape[-2], V.shape[-2]
    Sr = _u(S, -2)  # S_j along columns
    Sc = _u(S, -1)  # S_i along rows
    S2 = aten.mul.Tensor(S, S)
    eye = aten.eye.default(k, dtype=S._dtype)
    E = aten.add.Tensor(aten.sub.Tensor(_u(S2, -2), _u(S2, -1)), eye)
    inner = None
    if gU is not None:
        inner = aten.mul.Tensor(_skew(_mm(_mH(U), gU)), Sr)
    if gVh is not None:
        gV = _mH(gVh)
        t = aten.mul.Tensor(Sc, _skew(_mm(Vh, gV)))
        inner = t if inner is None else aten.add.Tensor(inner, t)
    inner = aten.mul.Tensor(aten.div.Tensor(inner, E), aten.rsub.Scalar(eye, 1))
    if gS is not None:
        inner = aten.add.Tensor(inner, _diag_embed(gS))
    if m > k and gU is not None:
        gUS = aten.div.Tensor(gU, Sr)
        left = aten.add.Tensor(_mm(U, inner), aten.sub.Tensor(gUS, _mm(U, _mm(_mH(U), gUS))))
        return (_mm(left, Vh),)
    if n > k and gVh is not None:
        gVS = aten.div.Tensor(_mH(gVh), Sr)
        right = aten.add.Tensor(
            _mm(inner, Vh), aten.sub.Tensor(_mH(gVS), _mm(_mm(_mH(gVS), V), Vh))
        )
        return (_mm(U, right),)
    return (_mm(_mm(U, inner), Vh),)


@derivative(
    "linalg_qr",
    "LinalgQrBackward0",
    save=("mode", "result0", "result1"),
    n_outputs=2,
    outputs=(0, 1),
)
def _qr(grads, mode, result0, result1):
    gQ, gR = grads
    Q, R = result0, result1
    if mode == "r":
        raise RuntimeError(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
            "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
            "through linalg.qr."
        )
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError(
            "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
        )
    if m >= n:
        return (_qr_square(gQ, gR, Q, R),)
    # Wide A = [X | Y] = Q [U | V]: X = Q U is the square case with gQ + Y gV^H; gY = Q gV.
    U = aten.narrow.default(R, -1, 0, m)
    gU = gY = None
    if gR is not None:
        gU = aten.narrow.default(gR, -1, 0, m)
        gV = aten.narrow.default(gR, -1, m, n - m)
        Y = _mm(Q, aten.narrow.default(R, -1, m, n - m))
        extra = _mm(Y, _mH(gV))
        gQ = extra if gQ is None else aten.add.Tensor(gQ, extra)
        gY = _mm(Q, gV)
    gX = _qr_square(gQ, gU, Q, U)
    if gY is None:
        gY = aten.zeros_like.default(aten.narrow.default(R, -1, m, n - m))
        gY = _mm(Q, gY)
    return (aten.cat.default([gX, gY], -1),)


def _qr_square(gQ, gR, Q, R):
    # M = R gR^H - gQ^H Q; gA = (gQ + Q copyltu(M)) R^{-H}, copyltu mirroring the strict lower
    # triangle onto the upper one.
    M = None
    if gR is not None:
        M = _mm(R, _mH(gR))
    if gQ is not None:
        t = _mm(_mH(gQ), Q)
        M = aten.neg.default(t) if M is None else aten.sub.Tensor(M, t)
    low = aten.tril.default(M, -1)
    diag = _diag_embed(aten.diagonal.default(M, 0, -2, -1))
    b = _mm(Q, aten.add.Tensor(aten.add.Tensor(low, _mH(low)), diag))
    if gQ is not None:
        b = aten.add.Tensor(b, gQ)
    return aten.linalg_solve.default(_mH(R), b, left=False)


@derivative("linalg_matrix_exp", "LinalgMatrixExpBackward0", save=("self",))
def _matrix_exp(grad, self):
    # The Fréchet derivative in direction G^... : exp([[A^H, G], [0, A^H]]) holds it in its
    # upper-right block.
    n = self.shape[-1]
    ah = _mH(self)
    z = aten.zeros_like.default(self)
    top = aten.cat.default([ah, grad], -1)
    bot = aten.cat.default([z, ah], -1)
    big = aten.linalg_matrix_exp.default(aten.cat.default([top, bot], -2))
    return (aten.narrow.default(aten.narrow.default(big, -2, 0, n), -1, n, n),)


@derivative("linalg_cross", "LinalgCrossBackward0", save=("self", "other", "dim"))
def _cross(grad, self, other, dim, needs):
    gs = aten.linalg_cross.default(other, grad, dim=dim) if needs[0] else None
    go = aten.linalg_cross.default(grad, self, dim=dim) if needs[1] else None
    return gs, go


@derivative(
    "linalg_pinv.atol_rtol_tensor",
    "LinalgPinvBackward0",
    save=("self", "result"),
    no_grad=("atol", "rtol"),
    inputs=("self",),
)
def _pinv(grad, self, result):
    return (_pinv_backward(grad, result, self),)


def _pinv_backward(grad, P, self):
    # dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P, transposed onto dA.
    Ph, gh = _mH(P), _mH(grad)
    m, n = self.shape[-2], self.shape[-1]
    eye_m = aten.eye.default(m, dtype=self._dtype)
    eye_n = aten.eye.default(n, dtype=self._dtype)
    t1 = aten.neg.default(_mm(_mm(Ph, grad), Ph))
    t2 = _mm(_mm(aten.sub.Tensor(eye_m, _mm(self, P)), gh), _mm(P, Ph))
    t3 = _mm(_mm(_mm(Ph, P), gh), aten.sub.Tensor(eye_n, _mm(P, self)))
    return aten.add.Tensor(aten.add.Tensor(t1, t2), t3)


@derivative(
    "linalg_lstsq",
    "LinalgLstsqBackward0",
    save=("self", "b"),
    n_outputs=4,
    outputs=(0, 1),
    inputs=("self", "b"),
)
def _lstsq(grads, self, b, needs):
    gX, gres = grads[0], grads[1]
    vec = b.dim() == self.dim() - 1
    bb = aten.unsqueeze.default(b, -1) if vec else b
    P = aten.linalg_pinv.atol_rtol_float(self)
    gA = gB = None
    if gX is not None:
        gx = aten.unsqueeze.default(gX, -1) if vec else gX
        gA = _pinv_backward(_mm(gx, _mH(bb)), P, self) if needs[0] else None
        gB = _mm(_mH(P), gx) if needs[1] else None
    if gres is not None and gres.numel():
        # residuals = |A X - B|^2 per column at the minimizer X: by the envelope theorem
        # d/dB = -2 (A X - B) g, d/dA = 2 (A X - B) g X^H.
        X = _mm(P, bb)
        r = aten.sub.Tensor(_mm(self, X), bb)
        g = aten.unsqueeze.default(aten.unsqueeze.default(gres, -1), -1) if vec else _u(gres, -2)
        rg = aten.mul.Scalar(aten.mul.Tensor(r, g), 2.0)
        if needs[0]:
            t = _mm(rg, _mH(X))
            gA = t if gA is None else aten.add.Tensor(gA, t)
        if needs[1]:
            t = aten.neg.default(rg)
            gB = t if gB is None else aten.add.Tensor(gB, t)
    if gB is not None and vec:
        gB = aten.squeeze.dim(gB, -1)
    return gA, gB
