// The web app's one script. The annotate page's keys: each presses a button of a form, so
// every answer is a form post the page also takes without this script. And a page that
// asks for it (a job still running) loads itself again.
"use strict";

(() => {
  const refresh = document.querySelector('meta[name="arbiter-refresh"]');
  if (refresh) {
    const seconds = Number(refresh.content);
    if (seconds > 0) setTimeout(() => location.reload(), seconds * 1000);
  }

  let sent = false;
  const submit = (form, button) => {
    if (!form || sent) return;
    sent = true;
    form.requestSubmit(button || undefined);
  };

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const active = document.querySelector("form.ask.active");
    if (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement) {
      // Typing a reason: Enter answers with the guess, Escape leaves the reason.
      if (event.key === "Escape") target.blur();
      else if (event.key === "Enter" && !event.shiftKey && active && active.contains(target)) {
        event.preventDefault();
        submit(active, active.querySelector("button.guess"));
      }
      return;
    }
    if (event.key === "u") {
      event.preventDefault();
      submit(document.getElementById("undo"));
      return;
    }
    if (!active) return;
    let button = null;
    if (event.key === "Enter") button = active.querySelector("button.guess");
    else if (event.key === "s") {
      event.preventDefault();
      submit(document.getElementById("skip"));
      return;
    } else if (event.key === "r") {
      event.preventDefault();
      active.querySelector("textarea").focus();
      return;
    } else if (event.key.length === 1) {
      button = active.querySelector('button[data-key="' + CSS.escape(event.key) + '"]');
    }
    if (button) {
      event.preventDefault();
      submit(active, button);
    }
  });
})();
