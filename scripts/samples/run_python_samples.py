"""Runs the Python code samples check:samples sends, one per line of stdin, in this one process.

Each line is JSON: {"name", "source", "env"}. The sample runs as written, with the environment it
reads set first; its `print(response.status_code, ...)` is what it answered, and its `response`
(openapi-python-client's Response) gives the answer's body, for the ids later samples name. One JSON
line back per sample: {"status", "body"}; a sample that raised answers status 0 and the traceback.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        os.environ.update(request["env"])
        printed: list[tuple[Any, ...]] = []
        scope: dict[str, Any] = {"__name__": "__sample__", "print": lambda *args, **_: printed.append(args)}
        try:
            exec(compile(request["source"], request["name"], "exec"), scope)
            response = scope.get("response")
            body = response.content.decode("utf-8", "replace") if response is not None else ""
            answer = {"status": int(printed[-1][0]) if printed else 0, "body": body}
        except Exception:
            answer = {"status": 0, "body": traceback.format_exc()[-3000:]}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
