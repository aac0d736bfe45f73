// Freezes Object.prototype before the app's modules run, as the desktop shell does
// (tauri.conf.json `security.freezePrototype`), so the browser tests run the UI under the same
// rule: a library that assigns an inherited property (npm `qrcode` assigned `toString`) fails
// a browser test instead of leaving the real window blank. Harmless where the shell froze it.
Object.freeze(Object.prototype);
