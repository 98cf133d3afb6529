#!/usr/bin/env bash
# Cross-compilation check (issue 31): everything builds, vets and compiles
# its tests for macOS on both architectures, and the packages that must be
# portable (parser, ignore, policy) build for Windows. Nothing runs: no Mac
# or Windows machine is needed. Every check runs; the script fails at the
# end if any did, naming them.
set -uo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS=-buildvcs=false CGO_ENABLED=0

failed=()
check() { # description, command...
	local what=$1
	shift
	printf -- '-- %s\n' "$what"
	if ! "$@"; then
		failed+=("$what")
	fi
}

out=$(mktemp -d /tmp/cmdguard-cross.XXXXXX)
trap 'rm -rf "$out"' EXIT

for target in darwin/arm64 darwin/amd64; do
	export GOOS=${target%/*} GOARCH=${target#*/}
	check "$target: go build ./..." go build ./...
	check "$target: go vet ./..." go vet ./...
	# go test -c compiles each package's test binary without running it
	# (one at a time: the root package and cmd/cmdguard share a name). vet
	# has type-checked the tests for both architectures; linking them once,
	# for arm64, keeps CI within its time.
	[ "$GOARCH" = arm64 ] || continue
	for pkg in $(go list ./...); do
		check "$target: go test -c $pkg" go test -c -o "$out/${pkg//\//_}.test" "$pkg"
	done
done
# Other Unix systems: exec builds and refuses to run (exec_other.go).
export GOOS=freebsd GOARCH=amd64
check "freebsd/amd64: go build ./exec" go build ./exec
export GOOS=windows GOARCH=amd64
for pkg in ./parser ./ignore ./policy; do
	check "windows/amd64: go build $pkg" go build "$pkg"
	check "windows/amd64: go vet $pkg" go vet "$pkg"
done

if ((${#failed[@]})); then
	printf '\ncross-compilation failed:\n'
	printf '  %s\n' "${failed[@]}"
	exit 1
fi
echo "cross-compilation: all checks passed"
