package callfacts

import (
	"regexp"
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// What interpreter code does to the files it names and to the devices it
// talks to, spelled as the command line that does the same (see
// interpeffects.go), so the shell reading judges it on its target's zone:
//   - a loop over a glob or a folder's listing (for f in glob.glob(P),
//     Dir.glob(P).each do |f|, for (const f of globSync(P)), foreach my
//     $f (glob P)) that deletes each file is rm -f P; one that writes
//     each file back (t.write(f), wb.save(f), fs.writeFileSync(f, …),
//     open(f, 'w')) is sed -i over P: every match rewritten in place;
//   - a document opened from a named file and saved back to it
//     (doc.open(F) … doc.save(), wb = load_workbook(F) … wb.save(F)) is
//     sed -i F, an in-place rewrite; when what it removes first is the
//     whole content (doc.remove(doc.chunks), .clear(), delete_all) it is
//     truncate -s 0 F: the file is emptied;
//   - an MQTT publish (paho's publish.single/multiple, client.publish,
//     mqtt.js) is mosquitto_pub to the broker and topic with its
//     payload; serial.Serial(DEV).write is a write to DEV; pymodbus'
//     write_register/write_coil is mbpoll's write to the device; smbus
//     write_* is i2cset; RPi.GPIO output and gpiozero's on/off are
//     gpioset: the shell's device reading judges them.
// Project and scratch paths stay allowed because the shell reading
// allows sed -i and rm there.

// fileLoop: a loop over the files a glob or a listing names, its
// variable and its pattern (one of the alternatives' groups is set).
var fileLoop = lazyre.New(`for\s+(\w+)\s+in\s+(?:sorted\(\s*)?(?:glob\.i?glob|i?glob)\(\s*[fr]?['"]([^'"]+)['"]` +
	`|for\s+(\w+)\s+in\s+(?:sorted\(\s*)?(?:Path|pathlib\.Path)\(\s*[fr]?['"]([^'"]+)['"]\s*\)(?:\.expanduser\(\))?\.(r?glob|iterdir)\(\s*(?:['"]([^'"]*)['"])?` +
	`|Dir(?:\.glob\(\s*|\[\s*)['"]([^'"]+)['"]\s*[)\]]\s*\.each\s*(?:do\s*\|\s*(\w+)\s*\||\{\s*\|\s*(\w+)\s*\|)` +
	`|for\s*\(\s*(?:const|let|var)\s+(\w+)\s+of\s+(?:await\s+)?(?:glob\.sync|globSync|glob|fg\.sync|fg)\(\s*['"]([^'"]+)['"]` +
	`|(?:glob\.sync|globSync|fg\.sync)\(\s*['"]([^'"]+)['"]\s*\)\s*\.forEach\(\s*(?:\(\s*)?(\w+)` +
	`|for(?:each)?\s+my\s+(\$\w+)\s*\(\s*(?:<([^>]+)>|glob\s*\(?\s*['"]([^'"]+)['"])` +
	`|for\s+(\w+)\s+in\s+(?:sorted\(\s*)?os\.listdir\(\s*[fr]?['"]([^'"]+)['"]`)

// loopFiles is each loop variable of code and the files it stands for.
func loopFiles(code string) map[string]string {
	out := map[string]string{}
	for _, m := range fileLoop.FindAllStringSubmatch(code, 8) {
		switch {
		case m[1] != "":
			out[m[1]] = m[2]
		case m[3] != "":
			pat := m[6]
			if m[5] == "iterdir" || pat == "" {
				pat = "*"
			}
			if m[5] == "rglob" {
				pat = "**/" + pat
			}
			out[m[3]] = strings.TrimSuffix(m[4], "/") + "/" + pat
		case m[7] != "":
			out[m[8]+m[9]] = m[7]
		case m[10] != "":
			out[m[10]] = m[11]
		case m[12] != "":
			out[m[13]] = m[12]
		case m[14] != "":
			out[m[14]] = m[15] + m[16]
		case m[17] != "":
			out[m[17]] = strings.TrimSuffix(m[18], "/") + "/*"
		}
	}
	if strings.Contains(code, "walk") {
		// for root, dirs, files in os.walk(D): for f in files:
		// os.remove(os.path.join(root, f)): every file under D, or those
		// of the extension an endswith test keeps
		for _, m := range walkLoop.FindAllStringSubmatch(code, 2) {
			pat := strings.TrimSuffix(m[2], "/") + "/**/*"
			if e := endsWith.FindStringSubmatch(code); e != nil {
				pat += e[1]
			}
			out[m[1]] = pat
			if f := filesLoop.FindStringSubmatch(code); f != nil {
				out[f[1]] = pat
			}
		}
	}
	return out
}

// walkLoop: os.walk over a named folder, its folder variable; filesLoop
// the inner loop over its file names; endsWith the extension a test
// keeps.
var walkLoop = lazyre.New(`for\s+(\w+)\s*,\s*\w+\s*,\s*\w+\s+in\s+os\.walk\(\s*[fr]?['"]([^'"]+)['"]`)
var filesLoop = lazyre.New(`for\s+(\w+)\s+in\s+(?:sorted\()?\w*files\b`)
var endsWith = lazyre.New(`\.endswith\(\s*['"](\.?[\w.]+)['"]`)

// varDelete and varWrite are the calls that delete or write the file a
// variable names (the variable spelled by %s).
const (
	varDelete = `(?:os\.remove|os\.unlink|os\.rmdir|shutil\.rmtree|send2trash|fs\.(?:promises\.)?(?:unlink|rm)(?:Sync)?|unlinkSync|rmSync|File\.delete|File\.unlink|FileUtils\.rm(?:_f|_rf|_r)?|\bunlink|\bremove)\s*\(\s*(?:Path\(\s*|(?:os\.)?path\.join\([^()]*,\s*|File\.join\([^()]*,\s*)?%[1]s\s*[,)]|\b%[1]s\.unlink\(|\bunlink\s+%[1]s\b`
	varWrite  = `\.(?:write|save|to_csv|to_excel|to_json|to_parquet|write_text|write_bytes|dump|writexml|export)\(\s*(?:[\w.]+\s*,\s*)?%[1]s\s*[,)]|\bopen\(\s*%[1]s\s*,\s*['"](?:w|a|wb|ab|w\+|r\+)['"]|(?:writeFileSync|writeFile|File\.write|IO\.write|File\.open\(\s*%[1]s\s*,\s*['"]w)\s*\(?\s*%[1]s\s*[,)]|\b%[1]s\.write_(?:text|bytes)\(|open\s*\(\s*(?:my\s+)?\$\w+\s*,\s*['"]\+?>['"]\s*,\s*%[1]s\b`
)

// docOpen: a document opened or loaded from a named file, the variable
// it is kept in (or the object whose open method took it) and the file.
var docOpen = lazyre.New(`(?:(\w+)\s*=\s*[\w.]*?(?:open|load|parse|load_workbook|open_workbook|Document|Presentation|PdfReader|PdfWriter|read|File|ZipFile|loadFile|readFile|openDocument)\(\s*[fr]?['"]([^'"]+)['"]|(\w+)\.(?:open|load|read|openDocument|loadFile)\(\s*[fr]?['"]([^'"]+)['"])`)

// emptiedAll: a call that removes a document's whole content (its
// collection of chunks, sheets, pages, records) rather than a part.
var emptiedAll = lazyre.New(`\.(?:remove|delete)\(\s*\w+\.\w+s\s*\)|\.clear\(\s*\)|\b(?:remove_all|delete_all|removeAll|deleteAll|clear_all|clearAll|drop_all)\b`)

// mqttPub: an MQTT publish with a topic literal and a payload literal.
var mqttPub = lazyre.New(`(?:\bsingle|\.publish)\(\s*[fr]?['"` + "`" + `]([^'"` + "`" + `]+)['"` + "`" + `]\s*,\s*(?:payload\s*=\s*)?[fr]?['"` + "`" + `]([^'"` + "`" + `]*)['"` + "`" + `]`)

// mqttMultiple: paho's publish.multiple: each message a topic and a
// payload ({'topic': T, 'payload': P} or (T, P)).
var mqttMultiple = lazyre.New(`['"]topic['"]\s*:\s*[fr]?['"]([^'"]+)['"]\s*,\s*['"]payload['"]\s*:\s*[fr]?['"]([^'"]*)['"]|\(\s*[fr]?['"]([\w{}$/+#.-]+/[\w{}$/+#.-]+)['"]\s*,\s*[fr]?['"]([^'"]*)['"]`)

// mqttHost: the broker the code connects to.
var mqttHost = lazyre.New(`(?:hostname\s*=\s*|\.connect(?:_async)?\(\s*|mqtt\.connect(?:Async)?\(\s*|host\s*[:=]\s*)['"` + "`" + `](?:mqtts?://|wss?://|tcp://)?([\w.-]+)`)

// serialDev: a serial port opened by path.
var serialDev = lazyre.New(`(?:serial\.Serial|Serial|SerialPort|serial_for_url|ModbusSerialClient|Device::SerialPort->new)\(\s*(?:\{\s*)?(?:port\s*[:=]\s*|path\s*:\s*)?['"](/dev/[^'"]+)['"]`)

// modbusWrite and modbusHost: a Modbus register or coil written, and the
// device the client talks to.
var modbusWrite = lazyre.New(`\.write_(?:registers?|coils?)\(|\.write(?:Registers?|Coils?|SingleRegister|SingleCoil|MultipleRegisters|MultipleCoils)\(`)
var modbusHost = lazyre.New(`Modbus\w*Client\(\s*(?:host\s*=\s*)?['"]([\w.:-]+)['"]|connectTCP\(\s*['"]([\w.-]+)['"]`)

// i2cWrite: an SMBus or I2C write.
var i2cWrite = lazyre.New(`\.write_(?:byte|byte_data|word_data|block_data|i2c_block_data|quick)\(|\.i2c_rdwr\(|\.writeByteSync\(|\.writeI2cBlockSync\(|\.writeWordSync\(`)

// gpioWrite: a GPIO line driven (RPi.GPIO's output, gpiozero's on/off of
// an output device, onoff's writeSync).
var gpioWrite = lazyre.New(`\bGPIO\.output\(|\b(?:LED|Relay|OutputDevice|DigitalOutputDevice|Buzzer|Motor|Servo|PWMOutputDevice)\([^)]*\)[\s\S]*?\.(?:on|off|toggle|blink|forward|backward|value\s*=)|\.writeSync\(\s*[01]\s*\)|\bdigitalWrite\(`)

// fileDeviceEffects is the command lines of the code's file and device
// effects above (code is interpEffects', with $HOME spelled ~).
func fileDeviceEffects(code string) []string {
	var out []string
	if strings.Contains(code, "glob") || strings.Contains(code, "Dir") || strings.Contains(code, "listdir") || strings.Contains(code, "Path") || strings.Contains(code, "<") || strings.Contains(code, "walk") {
		for v, pat := range loopFiles(code) {
			if !PathLike(pat) || strings.ContainsAny(pat, " \n") {
				continue
			}
			q := regexp.QuoteMeta(v)
			del, err1 := regexp.Compile(strings.ReplaceAll(varDelete, "%[1]s", q))
			wr, err2 := regexp.Compile(strings.ReplaceAll(varWrite, "%[1]s", q))
			if err1 != nil || err2 != nil {
				continue
			}
			if del.MatchString(code) {
				cmd := []string{"rm", "-f"}
				if strings.Contains(code, "rmtree") || strings.Contains(code, "rm_rf") {
					cmd = []string{"rm", "-rf"}
				}
				out = append(out, argvCode(append(cmd, pat)))
			} else if wr.MatchString(code) {
				out = append(out, argvCode([]string{"sed", "-i", "s/^//", pat}))
			}
		}
	}
	if strings.Contains(code, "save") || strings.Contains(code, "write") || strings.Contains(code, "Write") || strings.Contains(code, "dump") || strings.Contains(code, "to_") {
		out = append(out, savedBack(code)...)
		out = append(out, readWrittenBack(code)...)
	}
	if strings.Contains(code, "mqtt") || strings.Contains(code, "MQTT") {
		host := ""
		if m := mqttHost.FindStringSubmatch(code); m != nil {
			host = m[1]
		}
		var msgs [][2]string
		for _, m := range mqttPub.FindAllStringSubmatch(code, 4) {
			msgs = append(msgs, [2]string{m[1], m[2]})
		}
		if strings.Contains(code, "multiple") {
			for _, m := range mqttMultiple.FindAllStringSubmatch(code, 4) {
				msgs = append(msgs, [2]string{m[1] + m[3], m[2] + m[4]})
			}
		}
		for _, mg := range msgs {
			cmd := []string{"mosquitto_pub"}
			if host != "" {
				cmd = append(cmd, "-h", host)
			}
			cmd = append(cmd, "-t", effectURLHole.ReplaceAllString(mg[0], "x"), "-m", effectURLHole.ReplaceAllString(mg[1], "x"))
			out = append(out, argvCode(cmd))
		}
	}
	if m := serialDev.FindStringSubmatch(code); m != nil && (serialSets(code) || modbusWrite.MatchString(code)) {
		out = append(out, "printf x > "+argvCode([]string{m[1]}))
	} else if modbusWrite.MatchString(code) {
		if m := modbusHost.FindStringSubmatch(code); m != nil {
			h := m[1] + m[2]
			if i := strings.IndexByte(h, ':'); i > 0 {
				h = h[:i]
			}
			out = append(out, argvCode([]string{"mbpoll", "-r", "1", h, "1"}))
		}
	}
	if i2cWrite.MatchString(code) && (strings.Contains(code, "SMBus") || strings.Contains(code, "smbus") || strings.Contains(code, "i2c")) {
		out = append(out, "i2cset -y 1 0x20 0x00 0x01")
	}
	if (strings.Contains(code, "GPIO") || strings.Contains(code, "gpiozero") || strings.Contains(code, "onoff") || strings.Contains(code, "wiringpi") || strings.Contains(code, "Gpio")) && gpioWrite.MatchString(code) {
		out = append(out, "gpioset gpiochip0 17=1")
	}
	return out
}

// savedBack is sed -i (or truncate -s 0 when the whole content is
// removed first) for each named file a document was opened from and is
// saved back to.
func savedBack(code string) []string {
	var out []string
	for _, m := range docOpen.FindAllStringSubmatch(code, 4) {
		v, file := m[1]+m[3], m[2]+m[4]
		if !PathLike(file) || strings.ContainsAny(file, " \n*?") {
			continue
		}
		q := regexp.QuoteMeta(v)
		back, err := regexp.Compile(`\b` + q + `\.(?:save|write|Save|Write)\(\s*(?:\)|['"]` + regexp.QuoteMeta(file) + `['"])`)
		if err != nil || !back.MatchString(code) {
			continue
		}
		if emptiedAll.MatchString(code) {
			out = append(out, argvCode([]string{"truncate", "-s", "0", file}))
		} else {
			out = append(out, argvCode([]string{"sed", "-i", "s/^//", file}))
		}
	}
	return out
}

// loopReadOnly is the patterns of code's file loops whose variable no
// write or delete call takes (Dir.glob(P).each { |p| File.write("build/"
// + File.basename(p), File.read(p)) }): the files P names are read, even
// when the code writes elsewhere.
func loopReadOnly(code string) map[string]bool {
	var out map[string]bool
	for v, pat := range loopFiles(code) {
		q := regexp.QuoteMeta(v)
		del, err1 := regexp.Compile(strings.ReplaceAll(varDelete, "%[1]s", q))
		wr, err2 := regexp.Compile(strings.ReplaceAll(varWrite, "%[1]s", q))
		if err1 != nil || err2 != nil || del.MatchString(code) || wr.MatchString(code) {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[pat] = true
	}
	return out
}

// serialWritten: a literal written to a port.
var serialWritten = lazyre.New(`\.write\(\s*b?['"]([^'"]*)['"]`)

// serialSets reports whether code writes to a serial port something other
// than a query: an instrument's query (*IDN?, STATUS?) asks for a reply
// and changes nothing, so a line that writes only queries reads.
func serialSets(code string) bool {
	if !strings.Contains(code, ".write(") {
		return false
	}
	ms := serialWritten.FindAllStringSubmatch(code, 8)
	if len(ms) < strings.Count(code, ".write(") {
		// a value the line does not show, unless it is the variable of a
		// loop over literals the line shows (for cmd in (b'AT+CSQ\r',
		// b'ATI\r'): s.write(cmd)): those are what is written
		lits := serialLoopWritten(code)
		if lits == nil || len(ms)+1 < strings.Count(code, ".write(") {
			return true
		}
		ms = append(ms, lits...)
	}
	answered := serialReadBack.MatchString(code)
	for _, m := range ms {
		if !strings.Contains(m[1], "?") && !(answered && serialAsks(m[1])) {
			return true
		}
	}
	return false
}

// serialReadBack: the code reads the device's answer (readline,
// read_until, read(n), readlines).
var serialReadBack = lazyre.New(`\.(?:readline|readlines|read_until|read_all|read)\s*\(`)

// serialAsks: a line written to a device that asks rather than commands
// (s28): its first word is a read word of verbs.txt, or read or query
// (b'GET LEVEL\r', 'READ TEMP', 'STATUS'), when the code then reads
// the answer.
func serialAsks(line string) bool {
	f := strings.Fields(strings.NewReplacer(`\r`, " ", `\n`, " ").Replace(line))
	if len(f) == 0 || len(f) > 3 {
		return false
	}
	w := strings.ToLower(strings.TrimLeft(f[0], "*:$#"))
	return destroyVerbs().reads[w] || w == "read" || w == "query" || w == "rd" || w == "req" || atQuery(f[0])
}

// atQueries are a modem's AT commands that only report (after AT, before
// any =): its identity, firmware, serial number, SIM and subscriber
// numbers, signal quality, activity and last error, and an engineering
// report of the serving cell. A command with ? (AT+COPS?) or =? reads
// too; the others (ATD, ATZ, AT&W, AT+CFUN=0) act.
var atQueries = map[string]bool{"": true, "I": true, "I0": true, "I1": true, "I2": true, "I3": true, "+CSQ": true, "+CESQ": true, "+CGSN": true, "+GSN": true,
	"+CIMI": true, "+CCID": true, "+ICCID": true, "+QCCID": true, "+GMR": true, "+GMI": true, "+GMM": true, "+CGMI": true, "+CGMM": true, "+CGMR": true,
	"+CNUM": true, "+CPAS": true, "+CEER": true, "+QENG": true, "+QNWINFO": true, "+QCSQ": true, "+QSPN": true, "+QGMR": true, "+QTEMP": true}

// atQuery: w is an AT command that only reports.
func atQuery(w string) bool {
	u := strings.ToUpper(w)
	if !strings.HasPrefix(u, "AT") {
		return false
	}
	cmd, _, _ := strings.Cut(u[2:], "=")
	return atQueries[cmd]
}

// serialLoopFor: a loop over a tuple or list of literals whose variable
// is written to the port (for cmd in (b'ATI\r', b'AT+CSQ\r'): … .write(cmd)).
var serialLoopFor = lazyre.New(`for\s+(\w+)\s+in\s+[(\[]([^)\]]*)[)\]]`)

// serialLoopLits: the literals of a loop's tuple.
var serialLoopLits = lazyre.New(`b?'([^']*)'|b?"([^"]*)"`)

// serialLoopWritten is the literals a loop hands the variable the code
// writes to the port, as serialWritten's matches; nil for none.
func serialLoopWritten(code string) [][]string {
	for _, m := range serialLoopFor.FindAllStringSubmatch(code, 4) {
		if !strings.Contains(code, ".write("+m[1]+")") {
			continue
		}
		var lits [][]string
		for _, l := range serialLoopLits.FindAllStringSubmatch(m[2], 16) {
			lits = append(lits, []string{l[0], l[1] + l[2]})
		}
		if len(lits) > 0 {
			return lits
		}
	}
	return nil
}

// pathVar: a variable assigned a path literal.
var pathVar = lazyre.New(`(?m)^\s*(\w+)\s*=\s*[fr]?['"]([^'"\s]+)['"]\s*$`)

// varRead is a call that reads the file a variable names (%[1]s).
const varRead = `(?:\bopen|read_csv|read_excel|read_json|read_parquet|readFileSync|readFile|File\.read|IO\.read|\bparse|\bload|load_workbook|Document|Presentation|Image\.open|imread|safe_load)\(\s*%[1]s\s*[,)]|\b%[1]s\.read_(?:text|bytes)\(`

// readWrittenBack is sed -i for each named file the code reads and then
// writes back, through a variable that holds its path (p = '~/x.json';
// d = json.load(open(p)); …; json.dump(d, open(p, 'w'))) or the same
// literal twice: the file is rewritten in place.
func readWrittenBack(code string) []string {
	var out []string
	seen := map[string]bool{}
	try := func(ref, file string) {
		if seen[file] || !PathLike(file) || strings.ContainsAny(file, " \n*?") {
			return
		}
		rd, err1 := regexp.Compile(strings.ReplaceAll(varRead, "%[1]s", ref))
		wr, err2 := regexp.Compile(strings.ReplaceAll(varWrite, "%[1]s", ref))
		if err1 != nil || err2 != nil || !rd.MatchString(code) || !wr.MatchString(code) {
			return
		}
		seen[file] = true
		out = append(out, argvCode([]string{"sed", "-i", "s/^//", file}))
	}
	for _, m := range pathVar.FindAllStringSubmatch(code, 8) {
		try(`\b`+regexp.QuoteMeta(m[1])+`\b`, m[2])
	}
	for _, l := range Literals(code) {
		if strings.Count(code, l) > 1 {
			try(`[fr]?['"]`+regexp.QuoteMeta(l)+`['"]`, l)
		}
	}
	return out
}
