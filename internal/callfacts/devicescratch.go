package callfacts

import "strings"

// On an Android device reached by a bridge's shell (adb shell, hdc
// shell), an app's cache folders are scratch the system itself clears
// when space runs short (/sdcard/Android/data/PKG/cache,
// /data/data/PKG/cache, /data/user/N/PKG/cache). The files of a debug
// or dev build of the app (PKG ending .debug, .dev: the package suffix
// Android Gradle builds give debug variants, applicationIdSuffix) are
// the developer's test data, as a dev database is; pm clear of such a
// package is allowed already. A release package's own files stay the
// user's.

// deviceBridgeShells run their command on a device.
var deviceBridgeShells = map[string]bool{"adb shell": true, "hdc shell": true, "sdb shell": true}

// appDataRoots hold one folder per app package on the device.
var appDataRoots = []string{"/sdcard/Android/data/", "/storage/emulated/0/Android/data/", "/storage/self/primary/Android/data/",
	"/sdcard/Android/media/", "/storage/emulated/0/Android/media/", "/data/data/", "/data/user/0/", "/data/user_de/0/"}

// devPackageSuffixes mark a debug or development build of an app.
var devPackageSuffixes = []string{".debug", ".dev", ".development", ".test", ".local"}

// onDevice reports whether c runs in a device bridge's shell.
func onDevice(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if deviceBridgeShells[w] {
			return true
		}
	}
	return false
}

// deviceAppScratch: p, on the device c runs on, lies in an app's cache
// folder or in the files of a debug build of an app.
func deviceAppScratch(c *Cmd, p string) bool {
	if !onDevice(c) || strings.ContainsAny(p, "$`*?[") || strings.Contains(p, "..") {
		return false
	}
	for _, r := range appDataRoots {
		rest, ok := strings.CutPrefix(p, r)
		if !ok {
			continue
		}
		pkg, below, _ := strings.Cut(rest, "/")
		if pkg == "" || !strings.Contains(pkg, ".") {
			return false
		}
		for _, s := range devPackageSuffixes {
			if strings.HasSuffix(strings.ToLower(pkg), s) {
				return true
			}
		}
		top, _, _ := strings.Cut(below, "/")
		return top == "cache" || top == "code_cache"
	}
	return false
}
