"""What the client scenarios share: reading the test's settings, asking the test to approve an
OAuth request as the owner would in a browser, and reporting every library call as one JSON line
on stdout: {"call": ..., "ok": true, "detail": ...} or {"call": ..., "ok": false, "error": ...}.
"""
import json
import sys
import traceback


class Scenario:
    def __init__(self):
        self.config = json.loads(sys.argv[1])
        self.failures = 0

    def _emit(self, obj):
        sys.stdout.write(json.dumps(obj) + '\n')
        sys.stdout.flush()

    def approve(self, auth_url):
        """The test logs in as the owner, opens auth_url and approves; answers {"verifier"} (PIN) or {"redirect"}."""
        self._emit({'need': 'approve', 'url': auth_url})
        line = sys.stdin.readline()
        if not line:
            raise RuntimeError('the test did not answer the approval request')
        return json.loads(line)

    def step(self, call, fn, detail=None):
        """Runs one library call (with its checks); reports it; returns its value, or None when it failed."""
        try:
            value = fn()
            self._emit({'call': call, 'ok': True, 'detail': detail(value) if detail else None})
            return value
        except Exception as e:  # every failure is reported, and the scenario goes on
            self.failures += 1
            self._emit({'call': call, 'ok': False, 'error': f'{type(e).__name__}: {e}', 'trace': traceback.format_exc(limit=4)})
            return None

    def done(self):
        self._emit({'done': True, 'failures': self.failures})


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


# Keys that break clients building objects from answers: language keywords, and names of the
# receiver or of the client libraries' model attributes and methods.
PYTHON_KEYWORDS = {'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def',
                   'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is',
                   'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield', 'self'}


def no_keyword_keys(value, where='answer'):
    """Fails when any key at any depth is a Python keyword (or `self`)."""
    if isinstance(value, dict):
        for k, v in value.items():
            expect(k not in PYTHON_KEYWORDS, f'{where} has a key named {k!r}')
            no_keyword_keys(v, f'{where}.{k}')
    elif isinstance(value, list):
        for i, v in enumerate(value):
            no_keyword_keys(v, f'{where}[{i}]')
    return value
