package policy

import (
	"strings"
)

// s24-device: equipment on the local network reached by a bare name
// that says it is a controller, and gRPC calls to such equipment.
//
// A dome's, a stage's or a pump house's controller is often reached by
// a one-word host name of the site's own DNS (dome-ctl, pumphouse-plc,
// stage-controller, rack3-pdu): a name that holds a controller word
// (ctl, ctrl, controller, plc, rtu, hmi, pdu, scada, bms) is a device as
// a .local name is (lanDeviceHost), so lan-device-call reads its POSTs
// and action GETs. And a LAN device's gRPC API (a dish's, a robot's, a
// camera's: grpcurl -d '{"reboot":{}}' 192.168.100.1:9200 …/Handle)
// acts when its method or the request's first field is an action word
// (reboot, restart, stop, start, fire, open, press: remoteops.txt
// lan-device-verb); a read (get_status, GetDiagnostics, list) stays
// allowed, and so do this machine's and a container's services.

// controllerWords in a one-label host name make it a controller.
var controllerWords = map[string]bool{"ctl": true, "ctrl": true, "controller": true, "plc": true, "rtu": true, "hmi": true, "pdu": true, "scada": true, "bms": true}

// controllerHost: h is a one-label name holding a controller word.
func controllerHost(h string) bool {
	if strings.Contains(h, ".") || strings.Contains(h, ":") {
		return false
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(h), func(r rune) bool { return r == '-' || r == '_' || r >= '0' && r <= '9' }) {
		if controllerWords[w] {
			return true
		}
	}
	return false
}

// grpcLANAction: grpcurl calling a LAN device with an action, "" when
// it reads or the host is not a device.
func grpcLANAction(c *Cmd) string {
	var pos []string
	body := ""
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && !grpcurlBoolFlags[strings.TrimLeft(a, "-")] {
				if (a == "-d" || a == "--d") && i+1 < len(c.Args) {
					body = c.Args[i+1]
				}
				i++
			} else if v, ok := strings.CutPrefix(a, "-d="); ok {
				body = v
			}
			continue
		}
		pos = append(pos, a)
	}
	if len(pos) < 2 || !strings.Contains(pos[1], "/") && !strings.Contains(pos[1], ".") {
		return "" // grpcurl HOST list, HOST describe X
	}
	host := pos[0]
	if !lanDeviceHost("grpc://" + host) {
		return ""
	}
	verbs := opsList("lan-device-verb")
	method := pos[1][strings.LastIndexAny(pos[1], "/.")+1:]
	if w := actionWords(method); len(w) > 0 {
		if verbs[w[0]] || deviceTextAct(w) != "" {
			return "grpcurl calls " + method + " on " + host + ", a device on the local network: it acts: " + c.String()
		}
		if lanReadWord(w[0]) {
			return ""
		}
	}
	// a generic handler (Device/Handle) takes the act as the request's
	// first field: {"reboot":{}}, {"set_stow":{"unstow":false}}
	if m := firstJSONKey.FindStringSubmatch(body); m != nil {
		w := wordsOf(m[1])
		if len(w) > 0 && !lanReadWord(w[0]) && (verbs[w[0]] || opsList("lan-device-verb")[w[len(w)-1]] || deviceTextAct(w) != "") {
			return "grpcurl sends \"" + m[1] + "\" to " + host + ", a device on the local network: it acts: " + c.String()
		}
	}
	return ""
}

// grpcRPCCallers: grpcurl, and the interpreters whose code calls gRPC.
var grpcRPCCallers = []string{"grpcurl", "python", "python3", "node", "ruby"}

var firstJSONKey = re(`^\s*\{\s*"([A-Za-z_]\w*)"\s*:`)

// gRPC in an interpreter's code (python3 - <<EOF … grpc.insecure_channel(
// '192.168.100.1:9200') … Stub(ch).Handle(Request(dish_stow=…))): the
// channel's host, and the stub methods called and the request fields
// set on it, read as grpcurl's are.
var (
	grpcChannel  = re(`(?:insecure_channel|secure_channel|grpc\.Dial|grpc\.NewClient|credentials\.createInsecure[^'"]*|Client\()\(?\s*['"]([\w.-]+):\d+['"]`)
	xmlrpcProxy  = re(`ServerProxy\(\s*['"]https?://(?:[^@/'"]*@)?([\w.-]+)`)
	dottedCall   = re(`\.([A-Za-z_]\w*)\(`)
	grpcCallWord = re(`(?:Stub\([^)]*\)\.|stub\.|client\.)([A-Za-z_]\w*)\(|Request\(\s*([A-Za-z_]\w*)\s*=`)
)

// grpcPayloadAction: an interpreter's code calls a LAN device's gRPC API
// with an action, "" when it reads or the host is not a device.
func grpcPayloadAction(c *Cmd) string {
	p := c.Payload
	if p == "" || !strings.Contains(p, "grpc") && !strings.Contains(p, "ServerProxy") {
		return ""
	}
	calls := grpcCallWord
	m := grpcChannel.FindStringSubmatch(p)
	if m == nil {
		// XML-RPC: ServerProxy('http://10.0.0.5:9001/RPC2').supervisor.stopAllProcesses()
		if m = xmlrpcProxy.FindStringSubmatch(p); m == nil {
			return ""
		}
		calls = dottedCall
	}
	if !lanDeviceHost("grpc://" + m[1]) {
		return ""
	}
	for _, cm := range calls.FindAllStringSubmatch(p, -1) {
		for _, name := range cm[1:] {
			if name == "" {
				continue
			}
			if v := deviceTextAct(actionWords(name)); v != "" {
				return c.Name + " code calls the RPC API of " + m[1] + ", a device on the local network, with " + name + ": it acts (" + v + "): " + c.String()
			}
		}
	}
	return ""
}

func lanDeviceRPCRule() Rule {
	return cmdRule("external.systems:lan-device-rpc", Ask, "A gRPC call that makes a device on the local network act (grpcurl, or an interpreter's grpc or XML-RPC code, to a private address, a .local or .lan name or a controller's name like dome-ctl, whose method or first request field is an action: reboot, restart, stop, start, fire, open, stow, set…); reads (get_status, GetDiagnostics, list, describe) and this machine's services stay allowed; the words are data (policy/remoteops.txt device-text-act, device-text-read)", grpcRPCCallers,
		func(e *Env, c *Cmd) string {
			if c.Name != "grpcurl" {
				return grpcPayloadAction(c)
			}
			if onlyHelp(c) {
				return ""
			}
			return grpcLANAction(c)
		},
		[]string{`grpcurl -plaintext -d '{"reboot":{}}' 192.168.100.1:9200 SpaceX.API.Device.Device/Handle`, `grpcurl -plaintext -d '{"speed":0.4}' amr-07.lan:50051 fleet.v1.Robot/StartMission`,
			`grpcurl -plaintext -d '{}' 10.20.0.5:50051 cam.v1.Camera/Restart`, `grpcurl -plaintext -d '{"set_stow":{"unstow":false}}' 192.168.100.1:9200 SpaceX.API.Device.Device/Handle`,
			`grpcurl -plaintext -d '{"dish_stow":{}}' 192.168.100.1:9200 SpaceX.API.Device.Device/Handle`},
		[]string{`grpcurl -plaintext -d '{"get_status":{}}' 192.168.100.1:9200 SpaceX.API.Device.Device/Handle`, `grpcurl -plaintext 192.168.100.1:9200 list`,
			`grpcurl -plaintext -d '{}' localhost:50051 fleet.v1.Robot/StartMission`, `grpcurl -plaintext -d '{}' amr-07.lan:50051 fleet.v1.Robot/GetBattery`})
}
