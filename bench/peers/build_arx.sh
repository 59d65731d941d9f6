#!/usr/bin/env bash
# Builds the reference tool (ARX, its core library) from its public source with Java 17, and the
# project's own programs against it (ArxFigures.java for tests/peers, ArxPeers.java for the peers suite
# of `make bench`), into a cache directory outside the repository.
#
#   bench/peers/build_arx.sh            # build (or reuse) ~/.cache/ldiv_db/arx
#
# Source (the first that exists):
#   ARX_SRC   a checkout of github.com/arx-deidentifier/arx (a work tree with src/ and lib/)
#   ARX_GIT   a git directory of that repository (default /work/.mirror/arx-deidentifier+arx/repo);
#             the tag ARX_TAG (default v3.9.2) is extracted blob by blob, so a snapshot without its
#             largest files still builds
# Output (ARX_CACHE, default ~/.cache/ldiv_db/arx):
#   libarx-<tag>.jar, classpath.txt (the jars to run with), figures/ArxFigures.class and ArxPeers.class,
#   stamp (the source, each program's digest, the Java version). When only a program changed, the
#   programs alone are recompiled against the ARX already built.
#
# ARX's source and jars are never copied into this repository. The core library needs neither the
# PDF certificate (pdfbox) nor the classifiers' Hadoop types at run time, and snapshots may lack those
# jars: the certificate's two PDF writers are left out and two compile-only stubs stand for the types
# the remaining sources name (PDFont, Writable); they are compiled into the cache, never shipped.
#
# Exits 0 with a "skip:" line when Java 17 or the source is absent (the peers suite then skips).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TAG="${ARX_TAG:-v3.9.2}"
CACHE="${ARX_CACHE:-$HOME/.cache/ldiv_db/arx}"
GIT_DIR_DEFAULT=/work/.mirror/arx-deidentifier+arx/repo
ARX_GIT="${ARX_GIT:-$GIT_DIR_DEFAULT}"

skip() { echo "skip: $*"; exit 0; }

command -v javac >/dev/null 2>&1 || skip "javac not found (install openjdk-17-jdk-headless)"
JAVA_MAJOR="$(javac -version 2>&1 | sed -E 's/^javac ([0-9]+).*/\1/')"
[ "${JAVA_MAJOR:-0}" -ge 17 ] 2>/dev/null || skip "javac ${JAVA_MAJOR:-?} found, Java 17 or later needed"

if [ -n "${ARX_SRC:-}" ] && [ -d "$ARX_SRC/src/main" ]; then
    SOURCE_ID="dir:$(cd "$ARX_SRC" && pwd)"
elif [ -d "$ARX_GIT" ] && git --git-dir="$ARX_GIT" rev-parse -q --verify "$TAG^{commit}" >/dev/null; then
    SOURCE_ID="git:$(git --git-dir="$ARX_GIT" rev-parse "$TAG^{commit}")"
else
    skip "ARX source absent (set ARX_SRC to a checkout or ARX_GIT to a git dir holding tag $TAG)"
fi

FIGURES_SUM="$(sha256sum "$HERE/ArxFigures.java" | cut -c1-16)"
PEERS_SUM="$(sha256sum "$HERE/ArxPeers.java" | cut -c1-16)"
STAMP="$SOURCE_ID figures:$FIGURES_SUM peers:$PEERS_SUM java:$JAVA_MAJOR"
if [ -f "$CACHE/stamp" ] && [ "$(cat "$CACHE/stamp")" = "$STAMP" ]; then
    echo "ok: ARX $TAG already built in $CACHE"
    exit 0
fi

programs() {  # the project's programs against the built ARX (classpath $1)
    rm -rf "$CACHE/figures"
    mkdir -p "$CACHE/figures"
    javac -nowarn -encoding UTF-8 -d "$CACHE/figures" -cp "$1" "$HERE/ArxFigures.java" "$HERE/ArxPeers.java"
}

# The same ARX (source and Java) already built: only the programs changed.
if [ -f "$CACHE/.ldiv-arx-cache" ] && [ -f "$CACHE/stamp" ] && [ -f "$CACHE/classpath.txt" ] \
    && [ -f "$CACHE/libarx-$TAG.jar" ]; then
    case "$(cat "$CACHE/stamp")" in
        "$SOURCE_ID "*" java:$JAVA_MAJOR")
            programs "$(cat "$CACHE/classpath.txt")"
            echo "$STAMP" >"$CACHE/stamp"
            echo "ok: ARX $TAG already built in $CACHE; its programs recompiled"
            exit 0
            ;;
    esac
fi

# Only a directory this script made (its marker) or an empty one is ever cleared.
if [ -e "$CACHE" ] && [ ! -f "$CACHE/.ldiv-arx-cache" ] && [ -n "$(ls -A "$CACHE" 2>/dev/null)" ]; then
    echo "error: $CACHE exists and was not made by this script; set ARX_CACHE to a new directory"
    exit 2
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [ -n "${ARX_SRC:-}" ] && [ -d "$ARX_SRC/src/main" ]; then
    SRC="$ARX_SRC"
else
    SRC="$WORK/src"
    mkdir -p "$SRC"
    # Blob by blob: a snapshot may hold the tree but not every large blob (listed, then skipped).
    git --git-dir="$ARX_GIT" ls-tree -r "$TAG" -- src/main lib/ant >"$WORK/tree"
    while IFS=$'\t' read -r meta path; do
        sha="${meta##* }"
        if git --git-dir="$ARX_GIT" cat-file -e "$sha" 2>/dev/null; then
            mkdir -p "$SRC/$(dirname "$path")"
            git --git-dir="$ARX_GIT" cat-file blob "$sha" >"$SRC/$path"
        else
            echo "note: $path is absent from the snapshot"
        fi
    done <"$WORK/tree"
fi

rm -rf "$CACHE"
mkdir -p "$CACHE"
touch "$CACHE/.ldiv-arx-cache"
mkdir -p "$CACHE/classes" "$CACHE/stubs" "$CACHE/figures" "$CACHE/lib"

# Dependencies: ARX's own lib/ant jars, without the other platforms' SWT.
find "$SRC/lib/ant" -name '*.jar' ! -name '*cocoa*' ! -name '*win32*' -exec cp {} "$CACHE/lib/" \;

mkdir -p "$WORK/stubs/org/apache/pdfbox/pdmodel/font" "$WORK/stubs/org/apache/hadoop/io"
cat >"$WORK/stubs/org/apache/pdfbox/pdmodel/font/PDFont.java" <<'EOF'
package org.apache.pdfbox.pdmodel.font;
/** Compile-only stand-in: ldiv_db's peers build never renders ARX's PDF certificate. */
public abstract class PDFont {}
EOF
cat >"$WORK/stubs/org/apache/hadoop/io/Writable.java" <<'EOF'
package org.apache.hadoop.io;
/** Compile-only stand-in: ldiv_db's peers build never trains ARX's classifiers. */
public interface Writable {
    void write(java.io.DataOutput out) throws java.io.IOException;
    void readFields(java.io.DataInput in) throws java.io.IOException;
}
EOF
javac -nowarn -d "$CACHE/stubs" $(find "$WORK/stubs" -name '*.java')

LIBCP="$(find "$CACHE/lib" -name '*.jar' | sort | tr '\n' ':')"
find "$SRC/src/main" -name '*.java' \
    ! -path '*/certificate/ARXCertificate.java' ! -path '*/certificate/resources/Watermark.java' \
    >"$WORK/sources"
echo "building ARX $TAG ($(wc -l <"$WORK/sources") sources) into $CACHE"
javac -nowarn -encoding UTF-8 -J-Xmx1g -d "$CACHE/classes" -cp "$LIBCP$CACHE/stubs" @"$WORK/sources" \
    2>&1 | grep -v '^Note:' || true
[ -f "$CACHE/classes/org/deidentifier/arx/ARXAnonymizer.class" ] || { echo "error: ARX did not compile"; exit 1; }
# Resources beside the classes (the risk module's region tables).
(cd "$SRC/src/main" && find . -type f ! -name '*.java' -exec install -D {} "$CACHE/classes/{}" \;)
(cd "$CACHE/classes" && jar cf "$CACHE/libarx-$TAG.jar" .)
rm -rf "$CACHE/classes"

CP="$CACHE/libarx-$TAG.jar:$LIBCP$CACHE/stubs"
programs "$CP"
echo "$CP" >"$CACHE/classpath.txt"
echo "$STAMP" >"$CACHE/stamp"
echo "ok: ARX $TAG built in $CACHE (run: java -cp \"\$(cat $CACHE/classpath.txt):$CACHE/figures\" ArxFigures DIR)"
