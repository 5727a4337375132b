#!/usr/bin/env bash
# image.sh: build the Dockerfile with buildah (rootless-capable, no daemon)
# and run the image: chatwire version, a check of the built-in mock, and
# the proof that it runs as a user who cannot write to /.
#
# CI reaches only the Go module proxy, npm and apt, not Docker Hub, so the
# build stage's image (GO_IMAGE) is made here from this machine's Go
# toolchain, a /bin/sh and the module cache; the Dockerfile's steps run
# unchanged on it. The final stage is FROM scratch and needs no registry.
#
# Usage: .ci/image.sh   (from the repository root; needs buildah)
set -euo pipefail
cd "$(dirname "$0")/.."
export STORAGE_DRIVER=vfs

builder=localhost/chatwire-ci-go
image=localhost/chatwire-ci
ctr=""
cleanup() {
	[ -n "$ctr" ] && buildah rm "$ctr" >/dev/null 2>&1 || true
	buildah rmi -f "$image" "$builder" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# The builder: Go, a shell with its libc, CA certificates, the modules.
ctr=$(buildah from scratch)
mnt=$(buildah mount "$ctr")
goroot=$(go env GOROOT)
mkdir -p "$mnt/bin" "$mnt/usr/local" "$mnt/etc/ssl/certs" "$mnt/tmp" "$mnt/root"
cp "$(readlink -f /bin/sh)" "$mnt/bin/sh"
for lib in $(ldd "$(readlink -f /bin/sh)" | grep -o '/[^ ]*'); do
	mkdir -p "$mnt$(dirname "$lib")" && cp -L "$lib" "$mnt$lib"
done
cp -a "$goroot" "$mnt/usr/local/go"
cp /etc/ssl/certs/ca-certificates.crt "$mnt/etc/ssl/certs/"
chmod 1777 "$mnt/tmp"
GOMODCACHE="$mnt/root/go/pkg/mod" GOFLAGS=-mod=mod go mod download
buildah umount "$ctr" >/dev/null
buildah config --env PATH=/usr/local/go/bin:/bin --env HOME=/root --env GOTOOLCHAIN=local "$ctr"
buildah commit -q "$ctr" "$builder" >/dev/null
buildah rm "$ctr" >/dev/null
ctr=""

echo "building the Dockerfile (GO_IMAGE=$builder)"
buildah bud -q --isolation chroot --layers=false --build-arg GO_IMAGE="$builder" --build-arg GOPROXY=off \
	--build-arg VERSION=v0.0.0-ci -t "$image" . >/dev/null
buildah images "$image"

ctr=$(buildah from "$image")
user=$(buildah inspect --format '{{.OCIv1.Config.User}}' "$ctr")
entry=$(buildah inspect --format '{{.OCIv1.Config.Entrypoint}}' "$ctr")
echo "user $user, entrypoint $entry"
[ "$user" = "65532:65532" ] || { echo "the image must run as 65532:65532, not $user"; exit 1; }
[ "$entry" = "[/chatwire]" ] || { echo "the entrypoint must be /chatwire, not $entry"; exit 1; }
version=$(buildah run --isolation chroot "$ctr" -- /chatwire version)
echo "$version"
grep -q '^chatwire v0.0.0-ci$' <<<"$version" || { echo "chatwire version must name the VERSION build argument"; exit 1; }
buildah run --isolation chroot "$ctr" -- /chatwire check -run chat/5.3,chat/4.5
set +e
out=$(buildah run --isolation chroot "$ctr" -- /chatwire check -run chat/5.3 -json /report.json 2>&1)
set -e
grep -q 'permission denied' <<<"$out" || { echo "a non-root user must not write to /: $out"; exit 1; }
echo "the image runs chatwire as a user without write access to /"
