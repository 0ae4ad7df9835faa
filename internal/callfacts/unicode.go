package callfacts

import "strings"

// foldLookalikes maps the Unicode characters that look like shell syntax
// or command letters to ASCII: no-break and other spaces, dashes and minus
// signs, fullwidth forms, curly quotes, division slashes, zero-width
// characters (dropped) and the Cyrillic letters that pass for Latin ones.
// `rm\u00a0-rf /`, `rm \u2010rf /` and `ｒｍ -rf /` cannot run as written,
// but they are one edit away from the command they imitate. It reports
// whether anything changed.
func foldLookalikes(s string) (string, bool) {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s, false
	}
	changed := false
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		m := r
		switch {
		case r == 0x00A0 || r == 0x1680 || r >= 0x2000 && r <= 0x200A || r == 0x202F || r == 0x205F || r == 0x3000:
			m = ' '
		case r >= 0x200B && r <= 0x200D || r == 0x2060 || r == 0xFEFF || r == 0x00AD:
			changed = true
			continue
		case r >= 0x2010 && r <= 0x2015 || r == 0x2212 || r == 0xFE58 || r == 0xFE63 || r == 0x2043:
			m = '-'
		case r >= 0xFF01 && r <= 0xFF5E:
			m = r - 0xFEE0
		case r == 0x2018 || r == 0x2019 || r == 0x201B || r == 0x2032:
			m = '\''
		case r == 0x201C || r == 0x201D || r == 0x201F || r == 0x2033:
			m = '"'
		case r == 0x2215 || r == 0x2044 || r == 0x29F8:
			m = '/'
		case r == 0x2024 || r == 0xFF0E:
			m = '.'
		default:
			if l, ok := cyrillicLatin(r); ok {
				m = l
			}
		}
		if m != r {
			changed = true
		}
		b.WriteRune(m)
	}
	return b.String(), changed
}

func cyrillicLatin(r rune) (rune, bool) {
	switch r {
	case 'а':
		return 'a', true
	case 'е':
		return 'e', true
	case 'о':
		return 'o', true
	case 'р':
		return 'p', true
	case 'с':
		return 'c', true
	case 'х':
		return 'x', true
	case 'у':
		return 'y', true
	case 'і':
		return 'i', true
	case 'ѕ':
		return 's', true
	case 'ԁ':
		return 'd', true
	case 'һ':
		return 'h', true
	case 'ӏ':
		return 'l', true
	case 'ј':
		return 'j', true
	case 'ԛ':
		return 'q', true
	case 'ԝ':
		return 'w', true
	case 'м':
		return 'm', true
	case 'т':
		return 't', true
	case 'к':
		return 'k', true
	case 'н':
		return 'h', true
	case 'в':
		return 'b', true
	case 'А':
		return 'A', true
	case 'Е':
		return 'E', true
	case 'О':
		return 'O', true
	case 'Р':
		return 'P', true
	case 'С':
		return 'C', true
	case 'Х':
		return 'X', true
	case 'М':
		return 'M', true
	case 'Т':
		return 'T', true
	case 'К':
		return 'K', true
	case 'Н':
		return 'H', true
	case 'В':
		return 'B', true
	}
	return r, false
}
