// Applies the saved colour theme before the first paint (no flash of the wrong colours): the
// choice design/theme.ts cached from the settings, "system" following the OS. Loaded by
// index.html as a file, since the CSP allows no inline script.
(function () {
  var choice = "system";
  try {
    choice = localStorage.getItem("vibelife.theme") || "system";
  } catch (e) {
    // No storage (a locked-down webview): follow the system.
  }
  var dark = choice === "dark" || (choice !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.setAttribute("data-theme", dark ? "dark" : "light");
})();
