# Shared by the shell tests (source it): command checks that count failures.
# shellcheck shell=bash

failures=0

# make_work_dir: $work is a fresh folder, removed when the script exits.
make_work_dir() {
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
}

# expect EXIT_CODE PATTERN -- COMMAND...: runs the command, checks its exit code and
# that its output (stdout + stderr) matches the extended regular expression.
expect() {
  local code="$1" pattern="$2" out rc
  shift 3
  out="$("$@" 2>&1)"
  rc=$?
  if [[ "$rc" != "$code" ]] || ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAIL: $* -> exit $rc (wanted $code), output did not match /$pattern/:"
    echo "$out" | head -20
    failures=$((failures + 1))
  else
    echo "ok: $*"
  fi
}

# fail MESSAGE...: counts a failure and prints it.
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# Ends the test: non-zero exit when any check failed.
finish() {
  if ((failures)); then
    echo "$failures failure(s)"
    exit 1
  fi
  echo "all passed"
}
