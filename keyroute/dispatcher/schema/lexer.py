"""The schema lexer (PyTorch's TorchScript lexer, restricted to what a schema can contain), its
number and string-literal conversions, and the ``~~~~ <--- HERE`` error highlight."""

from __future__ import annotations

import math
import re

from .schema_type import SchemaParseError

# =============================================================================================
# Lexer (PyTorch's TorchScript lexer, restricted to what a schema can contain)
# =============================================================================================

_KEYWORDS = {
    "def": "def",
    "if": "if",
    "else": "else",
    "elif": "elif",
    "while": "while",
    "return": "return",
    "is": "is",
    "True": "True",
    "False": "False",
    "None": "None",
    "and": "and",
    "or": "or",
    "not": "not",
    "global": "global",
    "for": "for",
    "in": "in",
    "raise": "raise",
    "assert": "assert",
    "break": "break",
    "continue": "continue",
    "del": "del",
    "pass": "pass",
    "class": "class",
    "import": "import",
    "with": "with",
    "as": "as",
    "Ellipsis": "Ellipsis",
    "NoneType": "NoneType",
}
# multi-character operator tokens -> kind name (as PyTorch's kindToString spells them)
_MULTI_OPS = {
    "<=>": "equivalent",
    "**=": "**=",
    "<<=": "<<=",
    ">>=": ">>=",
    "...": "dots",
    "->": "arrow",
    "!=": "ne",
    "==": "eq",
    "<=": "le",
    ">=": "ge",
    "//": "floordiv",
    "<<": "<<",
    ">>": ">>",
    "+=": "+=",
    "-=": "-=",
    "*=": "*=",
    "/=": "/=",
    "%=": "%=",
    "|=": "|=",
    "&=": "&=",
    "^=": "^=",
    "**": "pow operator",
}
_OP_RE = re.compile(
    "|".join(re.escape(o) for o in sorted(_MULTI_OPS, key=len, reverse=True))
    + r"|[-+*/%@()\[\]:,={}><.?!&^|~]"
)
_NUM = (
    r"(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][-+]?[0-9]+)?"
    r"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)j?"
)
_NUM_RE = re.compile(_NUM)
# The common case in one match: blanks, then a number, an identifier or an operator.
_FAST_RE = re.compile(
    r"[ \t\v\f\r]*(?:(" + _NUM + r")|([A-Za-z_][A-Za-z0-9_]*)|(" + _OP_RE.pattern + r"))"
)
_BLANKS = " \t\v\f\r"

# token = (kind, start, end); kind is PyTorch's kindToString spelling: "ident", "number",
# "string_literal", "eof", "newline", "indent", "dedent", "arrow", "dots", a keyword, or the
# character itself. An error token is ("<error>", message, exception-kwargs).
_OPEN = {"(", "[", "{"}
_CLOSE = {")", "]", "}"}


def _is_string(src: str, pos: int) -> int:
    """Length of the string literal at ``pos`` (0 if none), PyTorch's isString."""
    quote = src[pos]
    n = len(src)
    ql = 3 if src.startswith(quote * 3, pos) else 1
    end = pos + ql
    closing = quote * ql
    while end < n and not src.startswith(closing, end):
        if src[end] == "\n" and ql != 3:
            return 0
        if src[end] == "\\":
            end += 1
        end += 1
    return end - pos + ql if end < n else 0


class _LexError(Exception):
    pass


def _match(src: str, pos: int, continuation: bool, whitespace_token: bool) -> tuple:
    """PyTorch's SharedParserData::match: returns (kind, start, end) or raises _LexError."""
    n = len(src)
    orig = pos
    while True:
        start = pos
        while pos < n and src[pos] in _BLANKS:
            pos += 1
        if pos < n:
            c = src[pos]
            if c == "#" and not src.startswith("# type:", pos):
                while pos < n and src[pos] != "\n":
                    pos += 1
                continue
            if c == "\\" and pos + 1 < n and src[pos + 1] == "\n" and not whitespace_token:
                pos += 2
                whitespace_token = False
                continue
            if c == "\n":
                pos += 1
                whitespace_token = not continuation
                continue
        break
    if whitespace_token:
        return ("<ws_eof>" if pos == n else "<ws>", start, pos)
    if pos == n:
        return ("eof", pos, pos)
    start = pos
    c = src[pos]
    if c != "-" and c != "+":
        m = _NUM_RE.match(src, pos)
        if m and m.end() > pos:
            return ("number", pos, m.end())
    if c == '"' or c == "'":
        ln = _is_string(src, pos)
        if ln:
            return ("string_literal", pos, pos + ln)
    if c.isascii() and (c.isalpha() or c == "_"):
        end = pos + 1
        while end < n and (src[end] == "_" or (src[end].isascii() and src[end].isalnum())):
            end += 1
        word = src[pos:end]
        if word == "is" and src.startswith(" not", end):
            return ("is not", pos, end + 4)
        if word == "not" and src.startswith(" in", end):
            return ("not in", pos, end + 3)
        return (_KEYWORDS.get(word, "ident"), pos, end)
    if src.startswith("# type:", pos):
        return ("type comment", pos, pos + 7)
    m = _OP_RE.match(src, pos)
    if m:
        op = m.group()
        return (_MULTI_OPS.get(op, op), pos, m.end())
    raise _LexError(
        _expected_msg(src, "a valid token", src[orig] if orig < n else "\0", start, start + 1)
    )


def _tokenize(src: str) -> list:
    """All tokens, as PyTorch's Lexer would hand them out (NEWLINE/INDENT/DEDENT included).

    A lexing error becomes an error token at the place the lexer would have raised it.
    """
    toks: list = []
    append = toks.append
    try:
        first = _match(src, 0, False, True)
    except _LexError as e:  # pragma: no cover - whitespace matching cannot fail
        return [("<error>", str(e), None)]
    indent_stack = [first[2] - first[1]]
    pos = first[2]
    nesting = 0
    fast = _FAST_RE.match
    keywords = _KEYWORDS
    multi = _MULTI_OPS
    while True:
        m = fast(src, pos)
        if m is not None:
            num, word, op = m.groups()
            if num is not None:
                append(("number", m.start(1), m.end()))
                pos = m.end()
                continue
            if word is not None:
                end = m.end()
                if (word == "is" or word == "not") and src.startswith(
                    " not" if word == "is" else " in", end
                ):
                    pass  # rare: take the slow path
                else:
                    append((keywords.get(word, "ident"), m.start(2), end))
                    pos = end
                    continue
            else:
                if op in _OPEN:
                    nesting += 1
                elif op in _CLOSE:
                    nesting -= 1
                append((multi.get(op, op), m.start(3), m.end()))
                pos = m.end()
                continue
        try:
            kind, start, end = _match(src, pos, nesting != 0, False)
        except _LexError as e:
            append(("<error>", str(e), None))
            return toks
        pos = end
        if kind in _OPEN:
            nesting += 1
        elif kind in _CLOSE:
            nesting -= 1
        elif kind == "<ws>" or kind == "<ws_eof>":
            depth = indent_stack[0] if kind == "<ws_eof>" else end - start
            if depth > indent_stack[-1]:
                indent_stack.append(depth)
                kind = "indent"
            elif depth == indent_stack[-1]:
                kind = "newline"
            else:
                batch = [("newline", start, end)]
                while indent_stack[-1] != depth:
                    indent_stack.pop()
                    batch.append(("dedent", start, end))
                    if not indent_stack:
                        msg = f"invalid indent level {depth}:\n" + _highlight(src, start, end)
                        append(("<error>", msg, None))
                        return toks
                toks.extend(batch)
                continue
        append((kind, start, end))
        if kind == "eof":
            return toks


# =============================================================================================
# Error formatting (PyTorch's SourceRange::highlight / ErrorReport / Lexer::expected)
# =============================================================================================


def _highlight(s: str, start: int, end: int, context: int = 3) -> str:
    n = len(s)
    if end - start == n:
        return s
    range_end = min(n, end)
    if start > n:
        return ""
    begin_line = start
    while begin_line > 0 and s[begin_line - 1] != "\n":
        begin_line -= 1
    end_line = range_end
    while end_line < n and s[end_line] != "\n":
        end_line += 1
    begin_context = begin_line
    i = 0
    while begin_context > 0:
        if s[begin_context - 1] == "\n":
            i += 1
        if i >= context:
            break
        begin_context -= 1
    end_context = end_line
    i = 0
    while end_context < n:
        if s[end_context] == "\n":
            i += 1
        if i >= context:
            break
        end_context += 1
    out = [s[begin_context:start]]
    line_start = start
    line_end = start
    while line_start < range_end:
        while line_end < n and s[line_end] != "\n":
            line_end += 1
        actual = s[line_start : line_end + 1]
        out.append(actual)
        if not actual.endswith("\n"):
            out.append("\n")
        hb = line_start
        while hb > 0 and s[hb - 1] != "\n":
            hb -= 1
        he = line_start
        while he < range_end and s[he] != "\n":
            he += 1
        empty = 0
        for k in range(hb, he):
            if s[k] == " " or k < start:
                empty += 1
            else:
                break
        hs = he - hb - empty
        if hs > 0:
            more = False
            for k in range(line_end, range_end + 1):
                ch = s[k] if k < n else "\0"
                if ch != "\n" and ch != " ":
                    more = True
            out.append(" " * empty + "~" * hs)
            out.append("\n" if (more and line_end != range_end) else " <--- HERE\n")
        line_end += 1
        line_start = line_end
    if line_end <= n:
        tail = s[line_end:end_context]
        out.append(tail)
        if tail and not tail.endswith("\n"):
            out.append("\n")
    return "".join(out)


def _expected_msg(src: str, what: str, found: str, start: int, end: int) -> str:
    return f"expected {what} but found '{found}' here:\n" + _highlight(src, start, end)


# =============================================================================================
# Parser
# =============================================================================================


_DEC_RE = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_HEX_RE = re.compile(r"0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+))([pP][-+]?[0-9]+)?")


def _c_stod(n: str) -> float:
    """std::stod on a number token (hex floats included); range errors raise like PyTorch."""
    neg = n.startswith("-")
    body = n[1:] if neg else n
    m = _HEX_RE.match(body)
    if m:
        mantissa = m.group(1)
        try:
            v = float.fromhex("0x" + mantissa + (m.group(2) or "p0"))
        except OverflowError:
            raise SchemaParseError("stod") from None
    else:
        m = _DEC_RE.match(body)
        if not m:
            raise SchemaParseError("stod")  # std::invalid_argument
        mantissa = re.split("[eE]", m.group())[0]
        v = float(m.group())
    if math.isinf(v) or (v != 0.0 and abs(v) < 2.2250738585072014e-308):
        raise SchemaParseError("stod")  # std::out_of_range (ERANGE)
    if v == 0.0 and mantissa.strip("0.") != "":
        raise SchemaParseError("stod")  # underflow to zero
    return -v if neg else v


def _c_stoll(n: str) -> int:
    m = re.match(r"-?[0-9]+", n)
    if not m:
        raise SchemaParseError("stoll")
    v = int(m.group())
    if not -(2**63) <= v < 2**63:
        raise SchemaParseError("stoll")
    return v


def _unescape(src_text: str, start: int, end: int, source: str) -> str:
    """parseStringLiteral: strip the quotes and resolve escapes (PyTorch's subset)."""
    ql = 3 if src_text[:3] in ('"""', "'''") else 1
    s = src_text[ql : len(src_text) - ql]
    if "\\" not in s:
        return s
    out = []
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = s[i + 1] if i + 1 < n else "\0"
        if e in "\\'\"\n":
            out.append(e)
            i += 2
        elif e in _ESCAPES_IN:
            out.append(_ESCAPES_IN[e])
            i += 2
        elif e == "x":
            raise _report(source, start, end, "unsupported hex specifier")
        elif e in "uU":
            raise _report(source, start, end, "unsupported unicode specifier")
        else:
            digits = s[i + 1 : i + 4]
            if i + 3 < n and len(digits) == 3 and all("0" <= d <= "7" for d in digits):
                v = int(digits, 8)
                if v < 256:
                    out.append(chr(v))
                    i += 4
                    continue
            raise _report(source, start, end, " ill formed octal specifier")
    return "".join(out)


_ESCAPES_IN = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "v": "\v", "t": "\t"}


def _report(source: str, start: int, end: int, msg: str) -> SchemaParseError:
    """An ErrorReport: '\\n<msg>:\\n<highlight>'."""
    return SchemaParseError(
        "\n" + msg + ":\n" + _highlight(source, start, end), msg, source, start, end
    )
