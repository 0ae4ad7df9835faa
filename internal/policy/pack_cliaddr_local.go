package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A CLI of a server (vault, consul, nomad, influx, etcdctl, minio's mc…)
// reads the server it talks to from a variable named after itself:
// VAULT_ADDR, CONSUL_HTTP_ADDR, NOMAD_ADDR, INFLUX_HOST, ETCDCTL_ENDPOINTS.
// When the line sets that variable to this machine (a dev server started
// for the session: vault server -dev, consul agent -dev), what the command
// deletes is that throwaway server's data, as with an emulator's
// *_EMULATOR_HOST or an --endpoint-url of localhost.

// cliAddrVar: an assignment of a variable naming a server address.
var cliAddrVar = re(`(?:^|[\s;&|(])([A-Z][A-Z0-9_]*_(?:ADDR|ADDRESS|HOST|URL|ENDPOINTS?|SERVER|API))=(\S+)`)

// cliAddrLocal: line sets one or more address variables named after prog
// (its name upper-cased, - as _, as the variable's first word) and every
// one of them is this machine.
func cliAddrLocal(line, prog string) bool {
	return cliAddrAll(line, prog, func(h string) bool { return callfacts.ThisMachine(h) || isLocalEndpoint(h) })
}

// cliAddrLab: line sets one or more address variables named after prog
// (GOVC_URL=https://vcsa-lab.lab.example.com/sdk govc vm.destroy x) and
// every one of them names a lab, test or dev server by its host name:
// what the command changes there is the team's scratch.
func cliAddrLab(line, prog string) bool {
	return cliAddrAll(line, prog, func(h string) bool { return h != "" && !prodWord.MatchString(h) && callfacts.LabTarget(h, nil) })
}

// cliAddrAll: line sets at least one address variable named after prog,
// and every host they name passes ok.
func cliAddrAll(line, prog string, ok func(host string) bool) bool {
	if !strings.Contains(line, "=") {
		return false
	}
	pre := strings.ToUpper(strings.ReplaceAll(prog, "-", "_")) + "_"
	n := 0
	for _, m := range cliAddrVar.FindAllStringSubmatch(line, -1) {
		if !strings.HasPrefix(m[1], pre) {
			continue
		}
		for _, v := range strings.Split(strings.Trim(m[2], `"'`), ",") {
			if !ok(urlHost(v)) {
				return false
			}
		}
		n++
	}
	return n > 0
}
