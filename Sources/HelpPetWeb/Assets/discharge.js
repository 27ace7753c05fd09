// The printable discharge page: its Print button (the page's own print styles hide the console's chrome).
document.getElementById("print")?.addEventListener("click", () => window.print());
