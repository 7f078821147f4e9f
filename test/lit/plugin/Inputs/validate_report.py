#!/usr/bin/env python3
"""Validates dlopt JSON reports against docs/report.schema.json.

Usage: validate_report.py SCHEMA REPORT...

Prints "REPORT: valid" for each valid report, else one line per error,
"REPORT: PATH: MESSAGE" with PATH the JSON path of the offending value
($.records[0].version), and exits 1 if any report is invalid.
"""
import json
import sys

from jsonschema import Draft202012Validator


def json_path(error):
    path = "$"
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    status = 0
    for report in argv[2:]:
        with open(report) as f:
            document = json.load(f)
        errors = sorted(validator.iter_errors(document),
                        key=lambda e: (json_path(e), e.message))
        if not errors:
            print(f"{report}: valid")
            continue
        status = 1
        for error in errors:
            message = error.message
            if error.validator == "not" and error.validator_value == {}:
                message = "not allowed here"  # The schema's $defs/absent.
            print(f"{report}: {json_path(error)}: {message}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
