#!/usr/bin/env bash
# chatwire-check.sh: the step of the chatwire GitHub Action (action.yml at
# the repository root). It installs chatwire from the action's own checkout,
# runs `chatwire check` with JSON, JUnit and Markdown reports, appends the
# Markdown report to the job summary and sets the step's outputs.
#
# It reads the action's inputs from INPUT_* variables (action.yml maps
# them) and GitHub's GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_STEP_SUMMARY
# and GITHUB_OUTPUT, so it runs the same outside GitHub with those set
# (cmd/chatwire/action_test.go does). Keys are not its business: chatwire
# reads CHATWIRE_API_KEY and the role keys from the environment.
#
# Exit status: 0 conformant (or not established with
# INPUT_FAIL_ON_INCONCLUSIVE=false), 1 a check failed, 2 a usage error or
# chatwire could not be installed, 3 conformance not established.
set -uo pipefail

action_path=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}

# annotate writes a workflow command (::error:: and the like), escaped as
# GitHub asks, so a message cannot end it early.
annotate() {
	local level=$1 msg=$2
	msg=${msg//'%'/'%25'}
	msg=${msg//$'\r'/'%0D'}
	msg=${msg//$'\n'/'%0A'}
	echo "::${level} title=chatwire check::${msg}"
}

# output sets a step output, when GitHub collects them.
output() {
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
	fi
}

# abspath returns a report path made absolute against the working directory.
abspath() {
	case $1 in
	/*) printf '%s' "$1" ;;
	*) printf '%s/%s' "$PWD" "$1" ;;
	esac
}

# patterns joins a list given with commas or newlines into one -run/-skip value.
patterns() {
	printf '%s' "$1" | tr '\n' ',' | sed -e 's/[[:space:]]//g' -e 's/,,*/,/g' -e 's/^,//' -e 's/,$//'
}

is_true() {
	case ${1,,} in
	true | yes | 1 | on) return 0 ;;
	esac
	return 1
}

# Install chatwire at the action's own ref, from its checkout: no download
# but the Go module proxy's for chatwire's dependencies.
bin_dir="$tmp/chatwire-bin"
ldflags=""
if [ -n "${CHATWIRE_ACTION_REF:-}" ]; then
	ldflags="-X main.linkedVersion=${CHATWIRE_ACTION_REF}"
fi
echo "::group::Install chatwire from $action_path"
if ! (cd "$action_path" && GOBIN="$bin_dir" CGO_ENABLED=0 go install -ldflags "$ldflags" ./cmd/chatwire); then
	echo "::endgroup::"
	annotate error "could not install chatwire from $action_path (is Go set up? see the log above)"
	exit 2
fi
chatwire="$bin_dir/chatwire"
"$chatwire" version
echo "::endgroup::"

json=$(abspath "${INPUT_JSON_REPORT:-chatwire-report.json}")
junit=$(abspath "${INPUT_JUNIT_REPORT:-chatwire-report.xml}")
md=$(abspath "${INPUT_MARKDOWN_REPORT:-chatwire-report.md}")
mkdir -p "$(dirname "$json")" "$(dirname "$junit")" "$(dirname "$md")"
rm -f "$json" "$junit" "$md"

args=(check -json "$json" -junit "$junit" -md "$md")
[ -n "${INPUT_BASE_URL:-}" ] && args+=(-base-url "$INPUT_BASE_URL")
run=$(patterns "${INPUT_RUN:-}")
[ -n "$run" ] && args+=(-run "$run")
skip=$(patterns "${INPUT_SKIP:-}")
[ -n "$skip" ] && args+=(-skip "$skip")
is_true "${INPUT_STRICT:-false}" && args+=(-strict)
[ -n "${INPUT_MAX_CHATS:-}" ] && args+=(-max-chats "$INPUT_MAX_CHATS")
[ -n "${INPUT_RATE:-}" ] && args+=(-rate "$INPUT_RATE")
[ -n "${INPUT_TIMEOUT:-}" ] && args+=(-timeout "$INPUT_TIMEOUT")
if [ -n "${INPUT_ARGS:-}" ]; then
	read -r -a extra <<<"$INPUT_ARGS"
	args+=("${extra[@]}")
fi

echo "chatwire ${args[*]}"
"$chatwire" "${args[@]}"
code=$?

output exit-code "$code"
for report in json:"$json" junit:"$junit" markdown:"$md"; do
	name=${report%%:*} path=${report#*:}
	[ -f "$path" ] && output "$name-report" "$path"
done
if is_true "${INPUT_JOB_SUMMARY:-true}" && [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$md" ]; then
	{ cat "$md"; echo; } >>"$GITHUB_STEP_SUMMARY"
fi

# The verdict line of the Markdown report ("❌ **Not conformant:** 2 checks
# failed.") says in one line what happened.
verdict=""
if [ -f "$md" ]; then
	verdict=$(sed -n '3p' "$md" | sed 's/\*\*//g')
fi
case $code in
0)
	exit 0
	;;
1)
	annotate error "${verdict:-a check failed}; the job summary and $(basename "$junit") have the details"
	exit 1
	;;
3)
	if is_true "${INPUT_FAIL_ON_INCONCLUSIVE:-true}"; then
		annotate error "${verdict:-conformance could not be established} (exit 3; fail-on-inconclusive: false makes this a warning)"
		exit 3
	fi
	annotate warning "${verdict:-conformance could not be established} (exit 3, not failed: fail-on-inconclusive is false)"
	exit 0
	;;
*)
	annotate error "chatwire check exited with $code: a usage error, see the log"
	exit "$code"
	;;
esac
