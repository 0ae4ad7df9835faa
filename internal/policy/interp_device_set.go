package policy

import "strings"

// s24 interpreter code that drives a physical device through its
// library: c = Core(); c.set_property('Laser 488', 'PowerSetpoint', 100)
// (Micro-Manager), psu = Keithley2400(addr); psu.set_voltage(12),
// m = Motor(port); m.setSpeed(300), Tango's DeviceProxy(…).write_attribute
// ('Current', 5). The device tables know named instruments and
// protocols (pyvisa's write, serial, Modbus); the setter on any device
// object, named for a physical quantity or an actuator (power, voltage,
// current, temperature, speed, position, valve, laser, shutter…), is the
// same act: a laser fires, a stage moves, a heater heats — controlling
// a physical device asks. A setter on a plot, a window, a data frame, a
// simulator, a mock or a demo device is not flagged.

// deviceWords: physical quantities and actuators a setter changes.
var deviceWords = re(`(?i)laser|power|voltage|\bvolts?\b|current|temperature|\btemp\b|setpoint|heater|cooler|motor|speed|\brpm\b|valve|pump|relay|shutter|position|\bstage\b|focus|\bflow\b|pressure|torque|\boutput\b|\bpwm\b|servo|frequency|illuminat|\blamp\b|\bled\b|\bfan\b|duty|throttle|brake|gripper|\bjoint|angle|attenuat|\bbias\b|\bhv\b|high_?voltage|wavelength|level|intensity|brightness|\bbeam\b|\bxy\b|\bz\b`)

// deviceSetMethod: a setter or writer called on a bound name:
// NAME.set_x(…), NAME.setX(…), NAME.SetX(…), NAME.write_attribute(…).
var deviceSetMethod = re(`\b(\w+)((?:\.\w+)*)\.((?:set|Set)_?[A-Za-z]\w*|write_attribute|write_attributes|writeAttribute|move_to|moveTo|move_absolute|move_relative|moveAbsolute|home|enable_output|output_on|turn_on|fire|actuate|energize|open_valve|close_valve)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)`)

// deviceNotDevice: objects whose setters change a picture, a window, a
// frame, a config or a log; and code against a simulator or a mock.
var deviceNotDevice = re(`(?i)matplotlib|plt\.|pyplot|seaborn|plotly|bokeh|tkinter|turtle|pygame|PyQt|PySide|Gtk|wx\.|kivy|pandas|numpy|torch|tensorflow|logging|argparse|configparser|\bmock|fake|simulat|\bdemo|virtual|dummy|emulat|\bsim\b|_sim\b|\btest`)

// deviceSetterCall reads code for a physical setter on an object it
// constructs: "c.set_property('Laser 488','PowerSetpoint',100)", "" for
// none.
func deviceSetterCall(code string) string {
	if !strings.Contains(code, "(") || deviceNotDevice.MatchString(code) {
		return ""
	}
	hits := deviceSetMethod.FindAllStringSubmatch(code, 16)
	if hits == nil {
		return ""
	}
	made := map[string]bool{}
	for _, m := range listedClientBound.FindAllStringSubmatch(code, 32) {
		root, _, _ := strings.Cut(m[2], ".")
		if made[root] || listedClientCall(m[2]) {
			made[m[1]] = true
		}
	}
	for _, h := range hits {
		recv, method, args := h[1], h[3], h[4]
		if listedLocalRoots[recv] || !made[recv] {
			continue // a setter on what the code did not make from a library
		}
		words := strings.Join(methodWords(method), " ")
		moves := !strings.HasPrefix(strings.ToLower(method), "set") && method != "write_attribute" && method != "write_attributes" && method != "writeAttribute"
		if !moves && !deviceWords.MatchString(words) && !deviceWords.MatchString(args) {
			continue
		}
		if strings.TrimSpace(args) == "" && strings.HasPrefix(strings.ToLower(method), "set") {
			continue // a setter given nothing: a mode's toggle read elsewhere
		}
		if len(args) > 60 {
			args = args[:60] + "…"
		}
		return recv + h[2] + "." + method + "(" + args + ")"
	}
	return ""
}

// lanAddrLit: a private-network address or a .lan/.local host as a
// literal (a console, a PLC, a lighting desk, a media server on the LAN).
var lanAddrLit = re(`['"](?:10\.\d{1,3}|192\.168|172\.(?:1[6-9]|2\d|3[01]))\.\d{1,3}\.\d{1,3}['":/]|['"][\w.-]+\.(?:lan|local|localdomain|home\.arpa)['":/]`)

// lanBoundCall: NAME = CALL(…) with the call's first arguments.
var lanBoundCall = re(`(?m)(?:^|[;\s({])(?:const\s+|let\s+|var\s+)?(\w+)\s*=\s*(?:new\s+)?([\w.:]+)\s*\(([^()\n]*)`)

// lanDeviceMethod: a method that sends a device a command or a value
// (send_command is left out: a switch's 'show …' is a read).
var lanDeviceMethod = re(`\b(\w+)\s*\.\s*(send_message|sendMessage|write_register|write_registers|write_coil|write_coils|writeRegister|writeCoil|press|trigger|fire|set_value|setValue|set_\w+|write)\s*\(`)

// lanChainCall: a client made and called in one chain.
var lanChainCall = re(`\b([A-Z]\w*)\s*\(([^()\n]*)\)\s*\.\s*(send_message|sendMessage|write_register|write_coil|press|trigger|set_\w+|write)\s*\(`)

// lanDeviceCall: code that makes a client of an address on the local
// network (SimpleUDPClient('10.0.50.21', 8000), ModbusTcpClient(
// '192.168.1.20')) and sends it a command or writes it a value:
// "c.send_message(…)"; a loopback client or a read is not.
func lanDeviceCall(code string) string {
	if !lanAddrLit.MatchString(code) {
		return ""
	}
	made := map[string]bool{}
	for _, m := range lanBoundCall.FindAllStringSubmatch(code, 16) {
		if listedClientCall(m[2]) && lanAddrLit.MatchString(m[3]) {
			made[m[1]] = true
		}
	}
	// a client made and called in one chain: U('10.0.50.21', 8000).send_message(…)
	for _, m := range lanChainCall.FindAllStringSubmatch(code, 4) {
		if lanAddrLit.MatchString(m[2]) {
			return m[1] + "(" + m[2] + ")." + m[3] + "(…)"
		}
	}
	for _, m := range lanDeviceMethod.FindAllStringSubmatch(code, 8) {
		if made[m[1]] {
			return m[1] + "." + m[2] + "(…)"
		}
	}
	return ""
}

func interpDeviceSetRule() Rule {
	return cmdRuleIf("core.interp:device-set", Ask, "Interpreter code that sets a physical quantity or moves an actuator on a device object it makes from a library (Core().set_property('Laser 488', 'PowerSetpoint', 100), psu.set_voltage(12), stage.move_to(x, y), DeviceProxy(…).write_attribute('Current', 5)): a laser, a motor, a heater or a valve acts in the room; a plot's, a window's or a frame's setters and a simulator, a demo or a mock device are not flagged", sdkRunners,
		func(e *Env, c *Cmd) bool {
			t := c.Payload + c.Heredoc
			return strings.Contains(t, ".set") || strings.Contains(t, ".send") || strings.Contains(t, ".write") || strings.Contains(t, ".press") || strings.Contains(t, ".trigger") || strings.Contains(t, ".Set") || strings.Contains(t, ".write_attr") || strings.Contains(t, ".move") || strings.Contains(t, ".home(")
		},
		func(e *Env, c *Cmd) string {
			text := runtimeText(c)
			if text == "" {
				return ""
			}
			if what := deviceSetterCall(text); what != "" {
				return c.Name + " code drives a physical device: " + what
			}
			if what := lanDeviceCall(text); what != "" && !deviceNotDevice.MatchString(text) {
				return c.Name + " code sends a command to a device on the local network: " + what
			}
			return ""
		},
		[]string{`python3 -c "from pymeasure.instruments.keithley import Keithley2400; k=Keithley2400('GPIB::24'); k.set_voltage(20)"`,
			`python -c "import tango; d=tango.DeviceProxy('sr/ps/quad-01'); d.write_attribute('Current', 85.0)"`,
			`python3 -c "from thorlabs_apt_device import BBD201; s=BBD201(serial_port='/dev/ttyUSB1'); s.move_absolute(position=20000)"`,
			`python3 -c "from pythonosc.udp_client import SimpleUDPClient as U; U('10.0.8.31', 53000).send_message('/go', 1)"`,
			`python3 -c "from pymodbus.client import ModbusTcpClient; c=ModbusTcpClient('192.168.10.40'); c.write_register(40001, 1)"`,
			`node -e "const {Board,Servo}=require('johnny-five'); const b=new Board(); b.on('ready',()=>{const s=new Servo(10); s.setAngle(90)})"`},
		[]string{`python3 -c "import matplotlib.pyplot as plt; f=plt.figure(); ax=f.add_subplot(); ax.set_position([0,0,1,1]); f.savefig('out.png')"`,
			`python3 -c "from pymeasure.instruments.keithley import Keithley2400; k=Keithley2400('GPIB::24'); print(k.voltage)"`,
			`python3 -c "from pycromanager import Core; c=Core(); print(c.get_property('Laser 488','PowerSetpoint'))"`,
			`python3 -c "import logging; l=logging.getLogger('x'); l.setLevel(10)"`,
			`python3 -c "from pythonosc.udp_client import SimpleUDPClient as U; U('127.0.0.1', 9000).send_message('/ping', 1)"`,
			`python3 -c "from pymodbus.client import ModbusTcpClient; c=ModbusTcpClient('192.168.10.40'); print(c.read_holding_registers(40001, 4))"`,
			`python3 -c "from mydevice.sim import SimulatedPSU; p=SimulatedPSU(); p.set_voltage(5)"`,
			`python3 -c "from openpyxl import Workbook; w=Workbook(); w.active.set_printer_settings(9)"`})
}
