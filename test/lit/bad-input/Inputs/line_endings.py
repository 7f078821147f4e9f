r"""Counts a file's line endings: prints "crlf=N lf=M", where lf counts the
"\n" not preceded by "\r". A third word "CRCR" flags a doubled "\r"."""
import sys

with open(sys.argv[1], "rb") as f:
    data = f.read()
crlf = data.count(b"\r\n")
lf = data.count(b"\n") - crlf
print(f"crlf={crlf} lf={lf}" + (" CRCR" if b"\r\r" in data else ""))
