#!/bin/sh
# RabbitMQ's entrypoint in compose: the image takes its user's password from RABBITMQ_DEFAULT_PASS
# only (RABBITMQ_DEFAULT_PASS_FILE is refused by its entrypoint), so this reads it from the secrets
# volume, which the one-shot service `secrets` filled before (depends_on), and hands over to the
# image's own entrypoint. The password stays out of the container's configuration (docker inspect).
# RabbitMQ uses it when it creates its user, on the first start of its data volume.
set -eu
file=/run/secrets/lunchrush/rabbitmq-password
if [ ! -s "$file" ]; then
  echo "rabbitmq: $file is missing or empty: the service secrets makes it (docker compose up runs it first)" >&2
  exit 1
fi
RABBITMQ_DEFAULT_PASS=$(cat "$file")
export RABBITMQ_DEFAULT_PASS
exec docker-entrypoint.sh "$@"
