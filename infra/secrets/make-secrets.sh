#!/bin/sh
# The stack's passwords, made on its first start. docker compose runs this script in the one-shot
# service `secrets` (busybox) on every `up`, before everything that needs a password: each such service
# depends on `secrets` with condition service_completed_successfully and mounts the named volume
# `secrets` read-only at /run/secrets/lunchrush.
#
#   make-secrets.sh [make]        write each password that is missing (32 letters and digits from
#                                 /dev/urandom) and keep each one that is there; a password that .env
#                                 sets (compose passes it in) is written instead: .env wins
#   make-secrets.sh show [NAME]   print the passwords, or NAME's alone (rabbitmq-password,
#                                 admin-password, grafana-admin-password)
#
# What the volume holds, and who reads it:
#   rabbitmq-password        RabbitMQ's user RABBITMQ_USER (lunchrush): RabbitMQ itself
#                            (infra/rabbitmq/entrypoint.sh), the services, the demo command
#   admin-password           user admin of every service's /admin/**, of Kafka UI and of the demo command
#   grafana-admin-password   Grafana's user admin (GF_SECURITY_ADMIN_PASSWORD__FILE)
#   spring/                  the services' config tree (SPRING_CONFIG_IMPORT=configtree:.../spring/):
#                            each file name is the property it sets, a link to one of the files above
#   kafka-ui/                Kafka UI's config tree (spring.security.user.password)
#   load-generator/.run/admin-password   where the demo command looks under LUNCHRUSH_HOME
# The password files are 0440 root:10001 (the services' group, see the Dockerfile; Kafka UI joins it
# with group_add), Grafana's is 0400 for Grafana's uid 472 alone. Nothing is printed but where to read
# them: a container's log is no place for a password.
# Settings, for tests on a machine without Docker: SECRETS_DIR (default /run/secrets/lunchrush),
# SECRETS_GROUP (10001), SECRETS_GRAFANA_UID (472). Files are owned as above only when run as root.
set -eu
umask 077

dir=${SECRETS_DIR:-/run/secrets/lunchrush}
group=${SECRETS_GROUP:-10001}
grafana_uid=${SECRETS_GRAFANA_UID:-472}
length=32

# file name, the .env variable that overrides it, owner:group, mode
SECRETS="rabbitmq-password RABBITMQ_PASSWORD 0:$group 0440
admin-password LUNCHRUSH_SECURITY_ADMIN_PASSWORD 0:$group 0440
grafana-admin-password GRAFANA_ADMIN_PASSWORD $grafana_uid:0 0400"

fail() {
  echo "secrets: $*" >&2
  exit 1
}

own() {  # own OWNER:GROUP PATH, as root only (a test run by a user keeps its own files)
  if [ "$(id -u)" = 0 ]; then
    chown -h "$1" "$2"
  fi
}

random_password() {
  LC_ALL=C tr -dc 'A-Za-z0-9' </dev/urandom | head -c "$length"
}

# write NAME VALUE OWNER MODE: a new file beside the old one, renamed over it once complete
write() {
  tmp="$dir/.$1.new"
  rm -f "$tmp"
  printf '%s' "$2" >"$tmp"
  chmod "$4" "$tmp"
  own "$3" "$tmp"
  mv -f "$tmp" "$dir/$1"
}

# link TARGET NAME: NAME (under the volume) points at TARGET, relative, so that it resolves wherever
# the volume is mounted
link() {
  parent=$(dirname "$dir/$2")
  mkdir -p "$parent"
  ln -sfn "$1" "$dir/$2"
}

make_secrets() {
  mkdir -p "$dir"
  chmod 0755 "$dir"
  replaced=""
  summary=""
  while read -r name variable owner mode; do
    eval "given=\${$variable:-}"
    file="$dir/$name"
    if [ -n "$given" ]; then
      if [ -s "$file" ] && [ "$(cat "$file")" = "$given" ]; then
        state="from $variable in .env, as stored"
      elif [ -s "$file" ]; then
        write "$name" "$given" "$owner" "$mode"
        state="from $variable in .env, replacing the one stored"
        replaced="$replaced $name"
      else
        write "$name" "$given" "$owner" "$mode"
        state="from $variable in .env"
      fi
    elif [ -s "$file" ]; then
      state="kept"
    else
      password=$(random_password)
      [ "${#password}" -eq "$length" ] || fail "could not read $length characters from /dev/urandom"
      write "$name" "$password" "$owner" "$mode"
      state="generated"
    fi
    # every start, so that a file changed by hand gets its permissions back
    chmod "$mode" "$file"
    own "$owner" "$file"
    summary="$summary
  $name: $state"
  done <<LIST
$SECRETS
LIST

  link ../rabbitmq-password spring/spring.rabbitmq.password
  link ../admin-password spring/lunchrush.security.admin-password
  link ../admin-password kafka-ui/spring.security.user.password
  link ../../admin-password load-generator/.run/admin-password
  for sub in spring kafka-ui load-generator load-generator/.run; do
    chmod 0750 "$dir/$sub"
    own "0:$group" "$dir/$sub"
  done

  echo "secrets: the stack's passwords are in the volume secrets:$summary"
  echo "  read them:  docker compose run --rm secrets show"
  echo "  the admin password for ./demo on this machine:"
  echo "    export LUNCHRUSH_SECURITY_ADMIN_PASSWORD=\$(docker compose run --rm -T secrets show admin-password)"
  echo "  a password set in .env (RABBITMQ_PASSWORD, LUNCHRUSH_SECURITY_ADMIN_PASSWORD, GRAFANA_ADMIN_PASSWORD) replaces the one here"
  if [ -n "$replaced" ]; then
    echo "  changed:$replaced. Running services read it at their next start: docker compose restart"
    case "$replaced" in
      *rabbitmq-password*)
        echo "  RabbitMQ keeps the password of its first start in its data volume; change it there too:"
        echo "    docker compose exec rabbitmq rabbitmqctl change_password ${RABBITMQ_USER:-lunchrush} 'the new password'"
        ;;
    esac
    case "$replaced" in
      *grafana-admin-password*)
        echo "  Grafana keeps the password of its first start in its data volume; change it there too:"
        echo "    docker compose exec grafana grafana cli admin reset-admin-password 'the new password'"
        ;;
    esac
  fi
}

show() {
  if [ $# -gt 0 ]; then
    case "$1" in
      rabbitmq-password | admin-password | grafana-admin-password) ;;
      *)
        echo "secrets: no password $1 (rabbitmq-password, admin-password, grafana-admin-password)" >&2
        exit 2
        ;;
    esac
    [ -s "$dir/$1" ] || fail "no $1 yet: docker compose up makes it"
    cat "$dir/$1"
    echo
    return
  fi
  [ -s "$dir/admin-password" ] || fail "no passwords yet: docker compose up makes them"
  echo "rabbitmq-password       $(cat "$dir/rabbitmq-password")   RabbitMQ user ${RABBITMQ_USER:-lunchrush}: amqp://localhost:5672, http://localhost:15672"
  echo "admin-password          $(cat "$dir/admin-password")   user admin: /admin/** of the services, Kafka UI http://localhost:8090, ./demo"
  echo "grafana-admin-password  $(cat "$dir/grafana-admin-password")   user admin: Grafana http://localhost:3000"
}

command=${1:-make}
[ $# -gt 0 ] && shift
case "$command" in
  make) make_secrets ;;
  show) show "$@" ;;
  *)
    echo "usage: make-secrets.sh [make | show [NAME]]" >&2
    exit 2
    ;;
esac
