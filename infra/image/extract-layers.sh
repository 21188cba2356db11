#!/bin/sh
# extract-layers.sh DESTINATION JAR...: each Spring Boot jar into DESTINATION/<jar name>/, one folder per
# layer of its BOOT-INF/layers.idx (dependencies, spring-boot-loader, snapshot-dependencies,
# application), with the launcher: the four folders copied over each other run with
#   java -cp . org.springframework.boot.loader.launch.JarLauncher
# The Dockerfile's build stage runs this, and the runtime stage copies each folder as a layer of its own.
# Spring Boot's tool does the work: java -Djarmode=tools -jar app.jar extract --layers --launcher. The
# tool needs Spring Framework's spring-core on its class path, and the load generator's jar has none
# (it is no Spring application, only packaged by Spring Boot's plugin): for such a jar the tool runs
# with spring-core and commons-logging lent by a jar of the same build that has them, extracted first.
set -eu
[ $# -ge 2 ] || { echo "usage: extract-layers.sh DESTINATION JAR..." >&2; exit 2; }
destination=$1
shift
layers="dependencies spring-boot-loader snapshot-dependencies application"

has_spring_core() {
  jar tf "$1" | grep -q '^BOOT-INF/lib/spring-core-[^/]*\.jar$'
}

finish() {  # finish NAME: every layer folder there (an empty layer still gets its COPY)
  for layer in $layers; do
    mkdir -p "$destination/$1/$layer"
  done
  echo "extract-layers.sh: $1: $(for layer in $layers; do printf '%s %s, ' "$layer" "$(du -sh "$destination/$1/$layer" | cut -f1)"; done | sed 's/, $//')"
}

lender=""
for jar in "$@"; do
  if has_spring_core "$jar"; then
    name=$(basename "$jar" .jar)
    rm -rf "${destination:?}/$name"
    java -Djarmode=tools -jar "$jar" extract --layers --launcher --destination "$destination/$name" >/dev/null
    finish "$name"
    [ -n "$lender" ] || lender="$destination/$name/dependencies/BOOT-INF/lib"
  fi
done
for jar in "$@"; do
  if ! has_spring_core "$jar"; then
    name=$(basename "$jar" .jar)
    [ -n "$lender" ] || { echo "extract-layers.sh: $jar has no spring-core and no other jar can lend it" >&2; exit 1; }
    class_path="$jar"
    for library in spring-core commons-logging; do
      found=$(find "$lender" -maxdepth 1 -name "$library-*.jar" | head -1)
      [ -n "$found" ] || { echo "extract-layers.sh: no $library in $lender" >&2; exit 1; }
      class_path="$class_path:$found"
    done
    rm -rf "${destination:?}/$name"
    java -Djarmode=tools -cp "$class_path" org.springframework.boot.loader.launch.JarLauncher \
      extract --layers --launcher --destination "$destination/$name" >/dev/null
    finish "$name"
  fi
done
