package policy

import "strings"

// Modbus pollers (mbpoll, modpoll) read a PLC's registers or coils
// when they are given only the device, and write them when values follow
// it: `mbpoll -t 4 -r 40101 ahu-02 0` sets a holding register, `mbpoll
// -t 0 -r 3 10.20.4.11 1` switches a coil (a pump, a fan, a valve). The
// write asks wherever the PLC is, on the network or this machine's
// serial port (a controller is another machine); a simulator on this
// machine's loopback (127.0.0.1:5020) stays allowed, as do reads (-1,
// -c 10 with no values).

// modbusValueOpts: the pollers' options that take a value when it is
// written apart (-m tcp, -a 1, -r 40101).
var modbusValueOpts = map[string]bool{"-m": true, "-a": true, "-r": true, "-c": true, "-t": true, "-l": true, "-o": true,
	"-p": true, "-b": true, "-d": true, "-s": true, "-P": true}

// modbusWrite reads a poller's positionals: the device first, then the
// values it writes (a negative value follows --; -0, -1, -4 are flags). It returns the device when values follow it.
func modbusWrite(c *Cmd) (device string, write bool) {
	var pos []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			if modbusValueOpts[a] {
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	if len(pos) < 2 {
		return "", false
	}
	return pos[0], true
}

func modbusWriteRule() Rule {
	return cmdRule("external.systems:modbus-write", Ask, "A Modbus poller (mbpoll, modpoll) given values after the device: it writes a PLC's registers or coils (a setpoint, a pump or valve switched), on the network or this machine's serial port; reads (no values) and a simulator on this machine's loopback stay allowed", []string{"mbpoll", "modpoll"},
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) {
				return ""
			}
			dev, ok := modbusWrite(c)
			if !ok || isLocalEndpoint("tcp://"+dev) {
				return ""
			}
			return c.Name + " writes to the Modbus device " + dev + ": " + c.String()
		},
		[]string{"modpoll -m tcp -a 2 -r 200 -t 4 plc-7.plant.example 1500", "mbpoll -m rtu -a 3 -b 19200 -t 0 -r 12 /dev/ttyUSB1 1",
			"mbpoll -a 1 -t 4:float -r 300 10.1.2.3 21.5 22.0"},
		[]string{"modpoll -m tcp -a 2 -r 200 -c 4 -1 plc-7.plant.example", "mbpoll -m tcp -a 1 -t 4 -r 10 127.0.0.1 55",
			"mbpoll -m rtu -a 3 -b 19200 -t 3 -r 1 -c 2 -1 /dev/ttyUSB1", "mbpoll -h"})
}
