package policy

import "strings"

// A host named by one label (psql -h db, redis-cli -h redis, --bootstrap-server
// kafka:9092) was read as a compose service of the project: the developer's
// own stack. That holds for the generic names a compose file gives its
// services (db, postgres, redis, kafka, broker, minio, es, possibly numbered:
// kafka-1, redis_1, or with a dev or test word: db-test). A one-label name of
// a business's own (afc-clearing, claims-db, tote-kafka, pharm-interface-02)
// is a machine on the company's network found through its DNS search domain:
// its environment is unknown, and a write there asks like one to any other
// shared host.

// composeServiceWords are the generic service names of compose files.
var composeServiceWords = map[string]bool{
	"db": true, "database": true, "postgres": true, "postgresql": true, "pg": true, "pgsql": true, "postgis": true, "timescaledb": true, "timescale": true,
	"mysql": true, "mariadb": true, "mssql": true, "sqlserver": true, "oracle": true, "redis": true, "valkey": true, "keydb": true, "memcached": true,
	"mongo": true, "mongodb": true, "cassandra": true, "scylla": true, "clickhouse": true, "kafka": true, "zookeeper": true, "zk": true, "broker": true,
	"redpanda": true, "rabbitmq": true, "rabbit": true, "mq": true, "activemq": true, "artemis": true, "nats": true, "mosquitto": true, "mqtt": true,
	"emqx": true, "pulsar": true, "minio": true, "s3": true, "localstack": true, "es": true, "elasticsearch": true, "elastic": true, "opensearch": true,
	"solr": true, "meilisearch": true, "typesense": true, "neo4j": true, "influxdb": true, "influx": true, "questdb": true, "cockroach": true,
	"cockroachdb": true, "crdb": true, "couchdb": true, "couchbase": true, "dynamodb": true, "etcd": true, "consul": true, "vault": true,
	"app": true, "web": true, "api": true, "backend": true, "frontend": true, "worker": true, "server": true, "nginx": true, "proxy": true,
	"cache": true, "queue": true, "search": true, "storage": true, "mailhog": true, "mailpit": true, "smtp": true, "keycloak": true,
	"jaeger": true, "prometheus": true, "grafana": true, "loki": true, "schema": true, "registry": true, "connect": true, "ksqldb": true,
	"primary": true, "replica": true, "master": true, "main": true, "sql": true, "mongo1": true, "node": true, "rest": true, "proxysql": true,
	"pgbouncer": true, "pgpool": true, "mailserver": true, "wiremock": true, "kafdrop": true, "debezium": true, "flink": true, "spark": true,
}

// composeServiceName: h (a host, no port) is one label made only of
// generic service words, numbers, and dev or test words (db, kafka-1,
// redis_1, postgres-db, db-test, app-db).
func composeServiceName(h string) bool {
	h = strings.ToLower(h)
	if h == "" || strings.ContainsAny(h, ".:/$") {
		return false
	}
	words := strings.FieldsFunc(h, func(r rune) bool { return r == '-' || r == '_' })
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		t := strings.TrimRight(w, "0123456789")
		if t == "" {
			continue // a number: kafka-1
		}
		if !composeServiceWords[t] && !devWords[t] && !testWords[t] {
			return false
		}
	}
	return true
}
