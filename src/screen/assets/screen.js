// The screen's only script (the Content-Security-Policy allows no inline script): a run's
// steps as they happen, a form that is not sent twice by a second click, and a copy button. The server
// honours the form's idempotency key either way; this only spares the second request.
(() => {
  document.addEventListener('submit', (event) => {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-once')) return;
    if (form.dataset.sending === 'yes' && !form.hasAttribute('hx-post')) {
      event.preventDefault();
      return;
    }
    form.dataset.sending = 'yes';
  });
  // A question to the desk can take minutes; the form says it is out until its answer comes.
  document.addEventListener('htmx:beforeRequest', (event) => {
    var busy = event.target instanceof HTMLFormElement && event.target.querySelector('#chat-busy');
    if (busy) busy.textContent = 'Asking the desk…';
  });
  document.addEventListener('htmx:afterRequest', (event) => {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    form.dataset.sending = '';
    var busy = form.querySelector('#chat-busy');
    if (busy) busy.textContent = '';
  });

  function follow(section) {
    var url = section.getAttribute('data-run-events');
    if (!url || typeof EventSource === 'undefined') return;
    var steps = section.querySelector('#run-steps');
    var outcome = section.querySelector('#run-outcome');
    var source = new EventSource(url);
    source.addEventListener('step', (e) => {
      var li = document.createElement('li');
      li.textContent = JSON.parse(e.data).text;
      steps.appendChild(li);
    });
    source.addEventListener('end', (e) => {
      var end = JSON.parse(e.data);
      outcome.textContent = end.outcome;
      if (steps.children.length === 0) section.querySelector('#run-no-steps')?.removeAttribute('hidden');
      retitle(end.ok ? 'data-ended-ok' : 'data-ended-failed');
      section.setAttribute('data-run-finished', 'yes');
      source.close();
    });
  }

  // The tab's title starts with the heading; both would still say "Running" after the end.
  function retitle(attribute) {
    var heading = document.getElementById('run-heading');
    var next = heading?.getAttribute(attribute);
    if (!next) return;
    var rest = document.title.startsWith(heading.textContent) ? document.title.slice(heading.textContent.length) : '';
    heading.textContent = next;
    document.title = next + rest;
  }

  // A key shown once: copy it without the owner having to select it by hand.
  document.addEventListener('click', (event) => {
    var button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
    if (!button) return;
    var field = document.getElementById(button.getAttribute('data-copy'));
    var said = document.getElementById(button.getAttribute('aria-describedby') || '');
    if (!field) return;
    var done = () => {
      if (said) said.textContent = 'Copied.';
    };
    var byHand = () => {
      field.select();
      var ok = document.execCommand?.('copy');
      if (said) said.textContent = ok ? 'Copied.' : 'Selected: press Ctrl+C (or Cmd+C) to copy.';
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, byHand);
    else byHand();
  });

  // A page drawn after a form was sent starts where the owner must look: the first refused
  // field where the page did not already give one the focus, else what the page says of the
  // press (a test message's outcome, a refusal) when that is below the first screenful.
  function lookHere() {
    if (document.querySelector('[autofocus]')) return;
    var refused = document.querySelector('[aria-invalid="true"]');
    if (refused) {
      refused.focus();
      return;
    }
    var said = Array.from(document.querySelectorAll('[role="status"], [role="alert"]')).find(
      (e) => e.textContent.trim() !== '',
    );
    if (said && said.getBoundingClientRect().top > window.innerHeight) said.scrollIntoView({ block: 'center' });
  }

  document.addEventListener('DOMContentLoaded', () => {
    document.querySelectorAll('[data-run-events]').forEach(follow);
    lookHere();
  });
})();
