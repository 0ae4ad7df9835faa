package policy

import "github.com/warden-dev/warden/internal/callfacts"

// interpreter code that hands a remote service's client a verb,
// whatever the vendor (callfacts/clientverbs.go): p4.run('obliterate', …),
// conn.call('BAPI_USER_DELETE'), an SDK's cmd('TGT FSW_FORMAT') or
// iCmd('x', 'ENDSBS …'), sg.update(…) on a client made with a URL and a
// key. The admin CLI that does the same asks; a client on this machine,
// in memory, a test double or a dry run is not flagged.
func clientVerbRules() []Rule {
	return []Rule{
		cmdRule("core.interp:client-verb-call", Ask, "Interpreter code that hands a service's client a destroy or change verb, whatever the SDK: its generic dispatch given the CLI's own subcommand (p4.run('obliterate', …), conn.call('BAPI_USER_DELETE')), a command sent through the SDK's command function (cmd('TGT FSW_FORMAT'), iCmd(…, 'ENDSBS …')), or a method named for a change on a remote client (sg.update(…), client.kill(…)): the service changes as its admin CLI would change it; a local, in-memory or test client and a dry run are not flagged", sdkRunners,
			func(e *Env, c *Cmd) string {
				text := runtimeText(c)
				if text == "" {
					return ""
				}
				what, _ := callfacts.ClientVerbCall(text)
				if what == "" || codeLocalClient.MatchString(text) || callfacts.SDKLocal(text) || callfacts.SDKDryRun(text) {
					return ""
				}
				return c.Name + " code hands a remote client a verb: " + what
			},
			[]string{`python3 -c "import P4; p=P4.P4(); p.connect(); p.run('obliterate','-y','//depot/x/...')"`,
				`python3 -c "from pyrfc import Connection; c=Connection(dest='PRD'); c.call('BAPI_USER_DELETE', USERNAME='X')"`,
				`python3 -c "from openc3.script import *; cmd('SAT1 PAYLOAD_POWER with STATE OFF')"`,
				`python3 -c "import os, shotgun_api3; sg=shotgun_api3.Shotgun('https://x.shotgrid.autodesk.com', script_name='p', api_key=os.environ['K']); sg.update('Shot', 12, {'code': 'x'})"`},
			[]string{`python3 -c "import P4; p=P4.P4(); p.connect(); print(p.run('info'))"`,
				`python3 -c "import subprocess; subprocess.run('ls -la', shell=True)"`,
				`python3 -c "from openc3.script import *; print(tlm('SAT1 HEALTH TEMP1'))"`,
				`python3 -c "d=dict(a=1); d.update({'b': 2}); print(d)"`}),
	}
}
