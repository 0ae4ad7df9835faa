package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/lazyre"
)

// A client made with the place it connects to, not a credential (#30):
// KafkaProducer(bootstrap_servers='tote-kafka:9092'),
// BleakClient('00:1B:66:AA:10:2F'), ServerProxy('https://erp.acme.com/…'),
// mqtt.Client() then connect('broker.example.net'). Brokers, devices and
// internal services often take no login, so the credential test of
// remoteClientChange (interp_client_change.go) misses them; the address
// on the line says the client reaches another machine all the same. Its
// change methods are judged as a logged-in client's, and a producer's or
// publisher's bare send/produce/emit is its publish (a KafkaProducer's
// send puts a record on a topic others consume; a socket's send is not
// read). A client of this machine (localhost, 127.0.0.1), a sandbox, a
// mock or a test stays unflagged, as before.

// clientEndpoint: a making call's argument that names another machine:
// an address option (host=, bootstrap_servers=, hostname=, url=), a URL
// of a service's scheme, a quoted host:port, a Bluetooth or MAC address.
var clientEndpoint = lazyre.New(`(?i)\b(?:bootstrap_servers|bootstrap\.servers|hostname|host|hosts|server|servers|broker|brokers|address|endpoint|url|uri|base_url|baseurl|server_url)\s*[=:]\s*\[?\s*['"][^'"\s]+['"]|['"](?:https?|wss?|mqtts?|amqps?|nats|tcp|opc\.tcp|rediss?|mongodb(?:\+srv)?|postgres(?:ql)?|mysql|amqp)://[^'"\s]+['"]|['"][a-z0-9][a-z0-9.-]*\.?[a-z0-9-]*:\d{2,5}['"]|['"](?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}['"]`)

// clientProducerMaking: the client is a producer or publisher: its bare
// send is the publish.
var clientProducerMaking = lazyre.New(`(?i)producer|publisher|sender\s*\(`)

// producerSendVerbs: a producer's or publisher's methods that put a
// message on the broker.
var producerSendVerbs = map[string]bool{"send": true, "produce": true, "emit": true, "publish": true, "send_and_wait": true, "sendAndWait": true, "send_batch": true, "sendBatch": true}

// publishModuleAlias: a module that only publishes, imported by name
// (import paho.mqtt.publish as p, from paho.mqtt import publish): its
// single and multiple send a message to the broker their hostname names.
var publishModuleAlias = lazyre.New(`\bimport\s+[\w.]+\.publish\s+as\s+(\w+)|\bfrom\s+[\w.]+\s+import\s+publish\b(?:\s+as\s+(\w+))?`)

// endpointClient: the making call names another machine (and nothing
// marks it this machine's, a sandbox's or a test's).
func endpointClient(call string) bool {
	if clientLocalMaking.MatchString(homePathsOut(call)) {
		return false
	}
	for _, ix := range clientEndpoint.FindAllStringIndex(call, 4) {
		m := call[ix[0]:ix[1]]
		v := m[strings.IndexAny(m, `'"`)+1:]
		v = strings.TrimRight(v, `'"`)
		if _, rest, ok := strings.Cut(v, "://"); ok {
			v = rest
		}
		host, _, _ := strings.Cut(v, "/")
		if !callfacts.LabTarget(strings.TrimSpace(host), nil) {
			return true // dev218734.service-now.com, a developer's own instance, is not
		}
	}
	return false
}

// publishModuleCall reads code for a publish-only module's send to a
// broker that is not this machine: "p.single(…)" in words, "" for none.
func publishModuleCall(code string) string {
	if !strings.Contains(code, "publish") {
		return ""
	}
	for _, m := range publishModuleAlias.FindAllStringSubmatch(code, 4) {
		alias := m[1] + m[2]
		if alias == "" {
			alias = "publish"
		}
		for _, call := range []string{".single(", ".multiple("} {
			i := strings.Index(code, alias+call)
			if i < 0 {
				continue
			}
			args := code[i+len(alias+call):]
			if j := strings.IndexByte(args, '\n'); j >= 0 {
				args = args[:j]
			}
			if endpointClient(args) {
				return alias + call + "…)"
			}
		}
	}
	return ""
}
