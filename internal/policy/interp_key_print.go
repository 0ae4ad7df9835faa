package policy

import "strings"

// s24 interpreter code that prints key material it derives from a
// secret: a wallet built from $PRIVATE_KEY (w.eth.account.from_key(…))
// whose a.key.hex() is printed, a keypair from a seed whose secret_key
// is printed, a mnemonic's phrase. core.secrets:interp-print-secret
// reads the variable printed as it is; here the secret goes through a
// library call first and comes out as the same key, so the transcript
// holds it all the same (ask). The public half, the address, a length or
// a fingerprint stay allowed; so does a key the code only signs with.

// keyDerivers: library calls that make a key object from secret input.
var keyDerivers = re(`from_key\s*\(|from_mnemonic\s*\(|fromMnemonic\s*\(|fromPhrase\s*\(|from_seed\s*\(|fromSeed\s*\(|fromSecretKey\s*\(|from_secret\w*\s*\(|from_private_key\w*\s*\(|from_wif\s*\(|fromWIF\s*\(|load_pem_private_key\s*\(|load_der_private_key\s*\(|import_key\s*\(|importKey\s*\(|\bnew\s+(?:ethers\.)?Wallet\s*\(|\bWallet\s*\(|\bPrivateKey\s*\(|SigningKey\s*\(|Keypair\.\w+\s*\(|HDNodeWallet|mnemonicToSeed\w*\s*\(|privateKeyToAccount\s*\(`)

// keyAccessor: what a key object gives that is the secret itself.
var keyAccessor = re(`\.(?:key|private_?key|privateKey|secret_?key|secretKey|secret|mnemonic|seed|signing_key|signingKey|wif|to_wif|toWIF|export_key|exportKey|private_bytes|to_pem|toPem|phrase|to_bytes|to_string|hex)\b`)

// keyPrintCall: the print calls whose argument is what they print.
var keyPrintCall = re(`\b(?:print|pprint|console\.log|console\.dir|puts|println|Write-Output|Write-Host)\b\s*\(?`)

// printsDerivedKey: the code reads a secret-named variable or a key file,
// makes a key from it and prints the key's secret part: "a.key.hex()".
func printsDerivedKey(code string) string {
	if !keyDerivers.MatchString(code) {
		return ""
	}
	secret := strings.Contains(code, "open(") || strings.Contains(code, "readFileSync(") || strings.Contains(code, "File.read(")
	for _, m := range codeEnvRead.FindAllStringSubmatch(code, 8) {
		for _, v := range m[1:] {
			if v != "" && (secretName(v) || walletSecret(v) || strings.Contains(strings.ToUpper(v), "KEY")) {
				secret = true
			}
		}
	}
	if !secret {
		return ""
	}
	for _, loc := range keyPrintCall.FindAllStringIndex(code, 16) {
		arg := code[loc[1]:]
		if k := strings.IndexAny(arg, ";\n"); k >= 0 {
			arg = arg[:k]
		}
		for _, a := range keyAccessor.FindAllStringIndex(arg, 8) {
			// the accessor's own expression: back to the word before it
			s := a[0]
			for s > 0 {
				ch := arg[s-1]
				if ch == ')' { // a call in the chain: back to its opening parenthesis
					d, k := 0, s-1
					for ; k >= 0; k-- {
						if arg[k] == ')' {
							d++
						} else if arg[k] == '(' {
							if d--; d == 0 {
								break
							}
						}
					}
					if k < 0 {
						break
					}
					s = k
					continue
				}
				if ch == '.' || ch == '_' || ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' {
					s--
					continue
				}
				break
			}
			expr := arg[s:a[1]]
			l := strings.ToLower(expr)
			if strings.Contains(l, "public") || strings.Contains(l, "pub") || strings.Contains(l, "address") || strings.Contains(l, "tx") || strings.Contains(l, "signature") || strings.Contains(l, "hash") {
				continue // the public half, an address, a signed transaction's hex
			}
			if strings.HasSuffix(expr, ".hex") || strings.HasSuffix(expr, ".to_bytes") || strings.HasSuffix(expr, ".to_string") {
				if !keyAccessor.MatchString(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(expr, ".hex"), ".to_bytes"), ".to_string")) {
					continue // x.hex(): hex of what? only a key's own
				}
			}
			if strings.Contains(arg[:s], "len(") {
				continue
			}
			return expr + "()"
		}
	}
	return ""
}

func interpPrintDerivedKeyRule() Rule {
	return cmdRule("core.interp:print-derived-key", Ask, "Interpreter code that makes a key from a secret it reads (an account from $PRIVATE_KEY, a keypair from a seed or a mnemonic, a PEM it loads) and prints the key's secret part (a.key.hex(), kp.secret_key, wallet.mnemonic.phrase, export_key()): the private key in the conversation, as printing the variable would put it there; the address, the public half or a signature stay allowed", []string{"python", "python3", "node", "nodejs", "ruby", "deno", "bun", "julia", "php", "perl"},
		func(e *Env, c *Cmd) string {
			code := c.Payload
			if code == "" {
				code = c.Heredoc
			}
			if what := printsDerivedKey(code); what != "" && !consumedByPipe(e.F.Commands, slicesIndex(e, c)) {
				return c.Name + " code prints a private key it derives from a secret (" + what + ")"
			}
			return ""
		},
		[]string{`python3 -c "import os; from eth_account import Account; a=Account.from_key(os.environ['DEPLOYER_KEY']); print(a.key.hex())"`,
			`node -e "const {ethers}=require('ethers'); const w=ethers.Wallet.fromPhrase(process.env.WALLET_MNEMONIC); console.log(w.privateKey)"`,
			`python3 -c "import os; from solders.keypair import Keypair; k=Keypair.from_base58_string(os.environ['SOL_SECRET']); print(k.secret())"`,
			`python3 -c "from cryptography.hazmat.primitives.serialization import load_pem_private_key, Encoding, PrivateFormat, NoEncryption; k=load_pem_private_key(open('deploy/signer.pem','rb').read(), None); print(k.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()).decode())"`},
		[]string{`python3 -c "import os; from eth_account import Account; a=Account.from_key(os.environ['DEPLOYER_KEY']); print(a.address)"`,
			`node -e "const {ethers}=require('ethers'); const w=new ethers.Wallet(process.env.PK); console.log(w.address)"`,
			`python3 -c "import boto3; [print(o.key) for o in boto3.resource('s3').Bucket('b').objects.all()]"`,
			`python3 -c "import os; from eth_account import Account; a=Account.from_key(os.environ['DEPLOYER_KEY']); s=a.sign_message(m); print(s.signature.hex())"`})
}
