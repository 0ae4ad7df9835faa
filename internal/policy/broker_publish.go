package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// s26 a message published to a broker: mosquitto_pub -h escape-broker.local
// -t room2/maglock/vault -m OPEN, kafka-console-producer --bootstrap-server
// kafka-prod-1:9092 --topic odds < fixtures/x.jsonl, nats pub, redis-cli
// PUBLISH, rabbitmqadmin publish, amqp-publish, amqsput, aws sns publish,
// aws sqs send-message, gcloud pubsub topics publish, coap-client -m put,
// a KafkaProducer's send or pika's basic_publish in a one-liner. Whatever
// the program, the act is the same: the message reaches every consumer of
// the topic — a maglock opens, a dispatch board shows a unit available,
// a settlement job books a race result. Which environment the broker
// serves only the user knows, so a publish to a broker that is not this
// machine asks; to one the line marks as production (its host, topic,
// queue manager) with test or fixture data or a bare command as the
// message, it is denied: that data lands in real consumers.
//
// Look-alikes stay allowed: subscribers and consumers (mosquitto_sub,
// kafka-console-consumer, kcat -C, nats sub), listings, --help, and a
// publish to this machine (no host: the client's default is localhost),
// to a compose service's generic name (kafka, broker, redis-1:
// composeServiceName), to a host named for dev or test, or to a public
// sandbox broker (test.mosquitto.org).

// brokerSend is one publish: the brokers it names ("" = the client's
// default, this machine), the topic or queue, the message text and the
// file the message is read from.
type brokerSend struct {
	hosts              []string
	topic, msg, source string
	cloud              bool // a cloud queue or topic (SNS, SQS, Pub/Sub): never this machine unless an emulator is named
}

// brokerPublishers are the programs that publish (a subcommand or option
// says so for the multi-purpose ones).
var brokerPublishers = []string{"mosquitto_pub", "mosquitto_rr", "mqttx", "mqtt", "kafka-console-producer", "kafka-console-producer.sh",
	"kafka-avro-console-producer", "kafka-protobuf-console-producer", "kafka-json-schema-console-producer", "kafka-verifiable-producer", "kafka-verifiable-producer.sh",
	"kcat", "kafkacat", "rpk", "nats", "redis-cli", "valkey-cli", "rabbitmqadmin", "amqp-publish", "amqsput", "amqsputc", "amqsput.exe",
	"aws", "gcloud", "coap-client", "pulsar-client", "stan-pub"}

// publicSandboxBrokers are public test brokers anyone may publish to.
var publicSandboxBrokers = map[string]bool{"test.mosquitto.org": true, "broker.hivemq.com": true, "broker.emqx.io": true, "mqtt.eclipseprojects.io": true,
	"public.mqtthq.com": true, "demo.nats.io": true, "coap.me": true}

// optVal is the value of the first of opts c carries ("-h x", "-h=x",
// "--host x"), "" when none.
func optVal(c *Cmd, opts ...string) string {
	for _, o := range opts {
		if v := optValue(c, o); v != "" {
			return v
		}
	}
	return ""
}

// readBrokerSend reads c as a publish, ok false when it is none.
func readBrokerSend(e *Env, c *Cmd) (s brokerSend, ok bool) {
	s.msg = optVal(c, "-m", "--message")
	s.source = optVal(c, "-f", "--file")
	if s.source == "" && strings.HasPrefix(c.Stdin, "<") {
		s.source = strings.TrimSpace(strings.TrimPrefix(c.Stdin, "<"))
	}
	switch c.Name {
	case "mosquitto_pub", "mosquitto_rr":
		s.hosts = []string{optVal(c, "-h", "--host")}
		if u := optVal(c, "-L", "--url"); u != "" {
			s.hosts = []string{u}
		}
		s.topic = optVal(c, "-t", "--topic")
	case "mqttx", "mqtt": // mqttx pub, HiveMQ's mqtt pub
		if sub(c) != "pub" && sub(c) != "publish" {
			return s, false
		}
		s.hosts = []string{optVal(c, "-h", "--hostname", "--host")}
		s.topic = optVal(c, "-t", "--topic")
	case "kcat", "kafkacat":
		if !c.Has("-P") {
			return s, false // -C consumes, -L lists
		}
		s.hosts = []string{optVal(c, "-b")}
		s.topic = optVal(c, "-t")
		if s.source == "" && c.Has("-l") && len(c.Pos) > 0 {
			s.source = c.Pos[len(c.Pos)-1]
		}
		if s.hosts[0] == "" {
			return s, false // the broker from kcat.conf: not shown
		}
	case "rpk":
		if sub(c) != "topic" || c.Sub(1) != "produce" {
			return s, false
		}
		s.hosts = []string{optVal(c, "--brokers")}
		s.topic = c.Sub(2)
	case "nats", "stan-pub":
		if c.Name == "nats" && !map[string]bool{"pub": true, "publish": true, "req": true, "request": true}[sub(c)] {
			return s, false
		}
		s.hosts = []string{optVal(c, "-s", "--server")}
		if s.hosts[0] == "" {
			if m := envHostAssign(e.F.Command, "NATS_URL"); m != "" {
				s.hosts[0] = m
			} else if ctx := optVal(c, "--context"); ctx != "" && !devName(ctx) && !testName(ctx) {
				s.hosts[0] = ctx
			}
		}
		var rest []string // the positionals past the subcommand, option values dropped
		for _, p := range c.Pos[min(1, len(c.Pos)):] {
			if p != optVal(c, "-s", "--server") && p != optVal(c, "--context") && p != optVal(c, "--creds") {
				rest = append(rest, p)
			}
		}
		if c.Name == "stan-pub" {
			rest = c.Pos
		}
		if len(rest) > 0 {
			s.topic = rest[0]
		}
		if len(rest) > 1 {
			s.msg = rest[1]
		}
	case "redis-cli", "valkey-cli":
		i := -1
		for j, p := range c.Pos {
			if strings.EqualFold(p, "publish") || strings.EqualFold(p, "spublish") {
				i = j
			}
		}
		if i < 0 {
			return s, false
		}
		s.hosts = []string{optVal(c, "-h")}
		if u := optVal(c, "-u"); u != "" {
			s.hosts = []string{u}
		}
		s.topic, s.msg = c.Sub(i+1), c.Sub(i+2)
	case "rabbitmqadmin":
		if sub(c) != "publish" {
			return s, false
		}
		s.hosts = []string{optVal(c, "-H", "--host")}
		for _, p := range c.Pos {
			if k, v, ok := strings.Cut(p, "="); ok && (k == "routing_key" || k == "exchange") && s.topic == "" {
				s.topic = v
			} else if ok && k == "payload" {
				s.msg = v
			}
		}
	case "amqp-publish":
		s.hosts = []string{optVal(c, "-u", "--url", "--server", "-s")}
		s.topic = optVal(c, "-r", "--routing-key", "-e", "--exchange")
		s.msg = optVal(c, "-b", "--body")
	case "amqsput", "amqsputc", "amqsput.exe":
		// IBM MQ's sample putter: QUEUE QMGR; the client build reaches
		// the host of MQSERVER, the bindings build this machine's queue
		// manager, which the line may still name for production
		s.topic = strings.Join(c.Pos, " ")
		s.hosts = []string{envHostAssign(e.F.Command, "MQSERVER")}
		if c.Name == "amqsputc" && s.hosts[0] == "" {
			s.hosts[0] = "$MQSERVER"
		}
	case "pulsar-client":
		if sub(c) != "produce" {
			return s, false
		}
		s.hosts = []string{optVal(c, "--url")}
		s.topic = c.Sub(1)
	case "coap-client":
		m := strings.ToLower(optVal(c, "-m"))
		if m != "put" && m != "post" && m != "delete" && m != "ipatch" && m != "patch" {
			return s, false
		}
		for _, p := range c.Pos {
			if strings.HasPrefix(p, "coap") {
				s.hosts, s.topic = []string{p}, urlPath(p)
			}
		}
		s.msg = optVal(c, "-e")
		if s.hosts == nil {
			return s, false
		}
	case "aws":
		op := sub(c) + " " + c.Sub(1)
		switch op {
		case "sns publish", "sqs send-message", "sqs send-message-batch", "events put-events", "kinesis put-record", "kinesis put-records", "firehose put-record", "firehose put-record-batch", "iot-data publish":
		default:
			return s, false
		}
		s.cloud = true
		s.hosts = []string{optVal(c, "--endpoint-url")}
		s.topic = optVal(c, "--topic-arn", "--target-arn", "--queue-url", "--stream-name", "--delivery-stream-name", "--topic") + " " + optVal(c, "--profile")
		s.msg = optVal(c, "--message", "--message-body", "--data", "--payload", "--entries")
	case "gcloud":
		if sub(c) != "pubsub" || c.Sub(1) != "topics" || c.Sub(2) != "publish" {
			return s, false
		}
		s.cloud = true
		s.hosts = []string{envHostAssign(e.F.Command, "PUBSUB_EMULATOR_HOST")}
		s.topic = c.Sub(3) + " " + optVal(c, "--project")
		s.msg = optVal(c, "--message")
	default: // the Kafka producers
		s.hosts = []string{optVal(c, "--bootstrap-server", "--broker-list")}
		s.topic = optVal(c, "--topic")
	}
	return s, true
}

// envHostAssign: the value a line gives NAME (NAME=v cmd, export
// NAME=v), "" when it gives none.
func envHostAssign(line, name string) string {
	i := strings.Index(line, name+"=")
	if i < 0 || i > 0 && (line[i-1] >= 'A' && line[i-1] <= 'Z' || line[i-1] == '_') {
		return ""
	}
	v := line[i+len(name)+1:]
	if v != "" && (v[0] == '\'' || v[0] == '"') {
		q := v[0]
		v = v[1:]
		if j := strings.IndexByte(v, q); j >= 0 {
			return v[:j]
		}
	}
	v, _, _ = strings.Cut(v, " ")
	return v
}

// brokerHostLocal: h (a host, host:port, list or URL) is this machine, a
// compose service's generic name, a host named for dev or test, or a
// public sandbox broker; "" is the client's default, this machine.
func brokerHostLocal(h string) bool {
	if h == "" {
		return true
	}
	for _, one := range strings.Split(h, ",") {
		one = strings.TrimSpace(strings.Trim(one, `"'[]`))
		if k, v, ok := strings.Cut(one, "="); ok && !strings.Contains(k, "/") {
			one = v // bootstrap.servers=k1:9092
		}
		hn := urlHost(one)
		if strings.HasPrefix(one, "CH") || strings.Contains(one, "/TCP/") {
			// MQSERVER='SYSTEM.DEF.SVRCONN/TCP/mqhost(1414)'
			if _, r, ok := strings.Cut(one, "/TCP/"); ok {
				hn, _, _ = strings.Cut(strings.ToLower(r), "(")
			}
		}
		switch {
		case strings.HasSuffix(hn, ".local") && !devName(strings.TrimSuffix(hn, ".local")) && !testName(strings.TrimSuffix(hn, ".local")):
			return false // escape-broker.local: an mDNS name, a box on the LAN (a Pi, a controller), not this machine
		case hn == "" || hn == "host.docker.internal" || isLocalEndpoint(hn) || callfacts.LoopbackAddr(hn):
		case publicSandboxBrokers[hn] || composeServiceName(hn):
		case !strings.Contains(hn, "$") && (devName(hn) || testName(hn)):
		default:
			return false
		}
	}
	return true
}

// brokerTestData: the message is test or fixture data (a file under
// test/, fixtures/, samples; a message that says test, sample, dummy).
var brokerTestData = re(`(?i)(^|[^a-z])(tests?|fixtures?|samples?|mocks?|fakes?|dummy|seed|synthetic|example|replay)([^a-z]|$)`)

// brokerCommandMsg: the message is a bare command to devices or jobs
// (OPEN, OFF, RESTART, {"cmd":"reboot"}).
var brokerCommandMsg = re(`(?i)^\s*(on|off|open|close|lock|unlock|start|stop|restart|reboot|reset|shutdown|halt|trigger|fire|arm|disarm|blackout|enable|disable|purge|flush|replay|resend)\s*$|"(cmd|command|action)"\s*:`)

func brokerPublishWhat(e *Env, c *Cmd) (brokerSend, string) {
	if onlyHelp(c) || e.dryRun(c) {
		return brokerSend{}, ""
	}
	var s brokerSend
	if callfacts.IsInterpreter(c.Name) {
		var ok bool
		if s, ok = codeBrokerSend(runtimeText(c)); !ok {
			return s, ""
		}
	} else {
		var ok bool
		if s, ok = readBrokerSend(e, c); !ok {
			return s, ""
		}
	}
	if t := strings.TrimSpace(s.topic); t != "" && !s.cloud && (devName(t) || testName(t)) && !prodMarker.MatchString(t) {
		return s, "" // -t test/x, dev/ping: a topic named for tests, which no device or job consumes
	}
	for _, h := range s.hosts {
		if s.cloud && h == "" {
			return s, "a cloud topic or queue"
		}
		if !brokerHostLocal(h) {
			return s, strings.Trim(h, `"'`)
		}
	}
	if len(s.hosts) > 0 && prodMarker.MatchString(s.topic) && !s.cloud {
		return s, "a production-named queue manager or topic" // amqsput Q QM_PROD on this machine's bindings
	}
	return s, ""
}

func brokerPublishRule() Rule {
	return cmdRuleIf("external.systems:broker-publish", Ask, "A message published to a broker that is not this machine (mosquitto_pub -h broker.site.lan, kafka-console-producer/kcat -P to a named cluster, nats pub -s, redis-cli -h … PUBLISH, rabbitmqadmin publish, amqp-publish, amqsput, aws sns publish, aws sqs send-message, gcloud pubsub topics publish, coap-client -m put, a KafkaProducer or basic_publish in a one-liner): every consumer of the topic acts on it (a lock opens, a job runs, a board changes); subscribers, consumers, listings and a broker on this machine, a compose service (kafka, broker, redis) or a dev/test host stay allowed", append(append([]string{}, brokerPublishers...), sdkRunners...),
		brokerPre,
		func(e *Env, c *Cmd) string {
			s, where := brokerPublishWhat(e, c)
			if where == "" {
				return ""
			}
			t := strings.TrimSpace(s.topic)
			if t != "" {
				t = " (" + t + ")"
			}
			return c.Name + " publishes a message to " + where + t + ": every consumer of it acts on it, in an environment the line does not show"
		},
		[]string{"mosquitto_pub -h mqtt.plant.example.net -t line3/conveyor/speed -m 0", "nats pub -s nats://nats.ops.example.org:4222 orders.cancel '{\"id\":9}'",
			"redis-cli -h cache01.corp.example.com PUBLISH invalidate '*'", "aws sns publish --topic-arn arn:aws:sns:us-east-1:1:alerts --message 'drill'",
			"gcloud pubsub topics publish builds --message '{\"ref\":\"main\"}'", "amqp-publish -u amqp://mq.example.org -r jobs -b run"},
		[]string{"mosquitto_pub -t dev/test -m hi", "mosquitto_sub -h mqtt.plant.example.net -t '#' -C 5", "kcat -b kafka.example.org:9092 -C -t orders -c 5",
			"nats pub -s nats://localhost:4222 t x", "redis-cli PUBLISH ch x", "mosquitto_pub -h mosquitto -t t -m x"})
}

func brokerPublishProdRule() Rule {
	return cmdRuleIf("external.systems:broker-publish-prod", Deny, "Test or fixture data, or a bare device or job command, published to a broker or topic the line names as production (kafka-console-producer --bootstrap-server kafka-prod-1:9092 --topic odds < fixtures/x.jsonl, amqsput BSM.IN QM_PROD < test/x.txt): real consumers act on fake records", append(append([]string{}, brokerPublishers...), sdkRunners...),
		brokerPre,
		func(e *Env, c *Cmd) string {
			s, where := brokerPublishWhat(e, c)
			if where == "" || !prodMarker.MatchString(where+" "+s.topic+" "+strings.Join(s.hosts, " ")) {
				return ""
			}
			switch {
			case s.source != "" && brokerTestData.MatchString(s.source):
				return c.Name + " publishes " + s.source + " (test data) to production (" + where + " " + strings.TrimSpace(s.topic) + ")"
			case s.msg != "" && (brokerTestData.MatchString(s.msg) || brokerCommandMsg.MatchString(s.msg)):
				return c.Name + " publishes a test message or bare command to production (" + where + " " + strings.TrimSpace(s.topic) + ")"
			}
			return ""
		},
		[]string{"kcat -b kafka-prod.example.com:9092 -t payments -P -l fixtures/payments.jsonl", "mosquitto_pub -h mqtt-prod.plant.example.net -t line3/press -m STOP", "amqsput PAY.IN QM_PROD < test/pay.xml"},
		[]string{"kcat -b kafka-prod.example.com:9092 -t payments -C", "kafka-console-producer --bootstrap-server kafka-staging:9092 --topic t < fixtures/a.jsonl", "mosquitto_pub -h localhost -t t -m STOP"})
}

// brokerPre: the cheap test before the reading: a publisher's name, or
// interpreter code naming a producer or publish call.
func brokerPre(e *Env, c *Cmd) bool {
	if !callfacts.IsInterpreter(c.Name) && !runtimes[c.Name] {
		return true
	}
	t := c.Payload + c.Heredoc
	return strings.Contains(t, "Producer") || strings.Contains(t, "publish") || strings.Contains(t, "send_message")
}

var (
	codeKafkaHost   = re(`(?:bootstrap_servers|bootstrap\.servers|brokers)['"]?\s*[=:]\s*\[?\s*['"]([^'"]+)['"]`)
	codeMQTTHost    = re(`(?:hostname\s*=\s*|\.connect\(\s*(?:host\s*=\s*)?|mqtt\.connect\(\s*)['"]([^'"]+)['"]`)
	codeAMQPHost    = re(`(?:ConnectionParameters\(\s*(?:host\s*=\s*)?|URLParameters\(\s*|amqp\.connect\(\s*)['"]([^'"]+)['"]`)
	codeRedisHost   = re(`(?:Redis\(\s*host\s*=\s*|from_url\(\s*|StrictRedis\(\s*host\s*=\s*)['"]([^'"]+)['"]`)
	codeNATSHost    = re(`nats\.connect\(\s*(?:servers\s*=\s*\[?\s*)?['"]([^'"]+)['"]`)
	codeBrokerCall  = re(`\.(send|produce|publish|single|multiple|basic_publish|send_message|send_messages)\(\s*[^)\s]`)
	codeEndpointURL = re(`endpoint_url\s*=\s*['"]([^'"]+)['"]`)
	codeTopicArg    = re(`\.(?:send|produce|publish|single|multiple)\(\s*f?['"]([^'"]+)['"]`)
)

// codeBrokerSend reads interpreter code for a producer's send: a Kafka
// producer, an MQTT, AMQP, Redis or NATS client publishing, boto3's SNS
// publish or SQS send_message.
func codeBrokerSend(code string) (s brokerSend, ok bool) {
	if code == "" || !codeBrokerCall.MatchString(code) {
		return s, false
	}
	if m := codeTopicArg.FindStringSubmatch(code); m != nil {
		s.topic = m[1]
	}
	for _, r := range []struct {
		lib  string
		host *lazyRE
	}{{"Producer", codeKafkaHost}, {"mqtt", codeMQTTHost}, {"pika", codeAMQPHost}, {"amqp", codeAMQPHost}, {"redis", codeRedisHost}, {"nats", codeNATSHost}} {
		if !strings.Contains(code, r.lib) {
			continue
		}
		m := r.host.FindStringSubmatch(code)
		if m == nil {
			if r.lib == "mqtt" && (strings.Contains(code, "publish.single") || strings.Contains(code, "publish.multiple")) {
				return s, true // paho's default: localhost
			}
			continue
		}
		s.hosts = []string{m[1]}
		return s, true
	}
	if strings.Contains(code, "boto3") && (strings.Contains(code, "'sns'") || strings.Contains(code, "\"sns\"") || strings.Contains(code, "'sqs'") || strings.Contains(code, "\"sqs\"")) &&
		(strings.Contains(code, ".publish(") || strings.Contains(code, ".send_message")) {
		s.cloud = true
		s.hosts = []string{""}
		if m := codeEndpointURL.FindStringSubmatch(code); m != nil {
			s.hosts = []string{m[1]}
		}
		return s, true
	}
	return s, false
}

// brokerRules: messages published to brokers.
func brokerRules() []Rule {
	return []Rule{brokerPublishRule(), brokerPublishProdRule()}
}

// brokerMessagePublish: c's publish subcommand sends a message to a
// broker's consumers (redis-cli PUBLISH, rabbitmqadmin publish, nats pub,
// gcloud pubsub topics publish, aws sns publish), which the broker rules
// judge by the broker's place, not a package put in a registry.
func brokerMessagePublish(c *Cmd) bool {
	switch c.Name {
	case "redis-cli", "valkey-cli", "rabbitmqadmin", "nats", "mqttx", "mqtt", "amqp-publish":
		return true
	case "gcloud":
		return sub(c) == "pubsub"
	case "aws":
		return sub(c) == "sns" || sub(c) == "iot-data"
	}
	return false
}
