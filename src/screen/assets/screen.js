// The screen's only script (the Content-Security-Policy allows no inline script): a run's
// steps as they happen, a form that is not sent twice by a second click, a date field that
// holds no real day, a question that got no answer, a copy button, where the focus starts
// after a form, and a form sent again from the page Back leads to. The server honours the form's idempotency key either way; this only spares the
// second request.
(() => {
  // A date field holding a day the calendar has not (31 February) sends nothing at all, which
  // the desk would read as no date: the form is held back and the field says so instead.
  /** How long after a form is sent a second press is taken for the same one. */
  var ONCE_MS = 3000;
  var NOT_A_DAY = 'That is not a day on the calendar. Pick one from the calendar, or type a real day.';
  function badDates(form) {
    var bad = Array.from(form.querySelectorAll('input[type="date"]')).filter((i) => i.validity?.badInput);
    bad.forEach((input) => {
      var id = `${input.id}-error`;
      var said = document.getElementById(id);
      if (!said) {
        said = document.createElement('small');
        said.id = id;
        said.className = 'field-error';
        said.setAttribute('role', 'alert');
        (document.getElementById(`${input.id}-hint`) || input).insertAdjacentElement('afterend', said);
      }
      said.textContent = NOT_A_DAY;
      input.setAttribute('aria-invalid', 'true');
      var described = (input.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
      if (!described.includes(id)) input.setAttribute('aria-describedby', described.concat(id).join(' '));
    });
    if (bad.length) bad[0].focus();
    return bad.length > 0;
  }

  document.addEventListener('submit', (event) => {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (badDates(form)) {
      event.preventDefault();
      return;
    }
    if (!form.hasAttribute('data-once')) return;
    // A second press in the moment after the first is the same press twice. Later, it is the
    // owner trying again after a page that stopped loading, and goes: the form's idempotency key
    // still keeps the server from doing the work twice.
    var since = Number(form.dataset.sending || 0);
    if (since && Date.now() - since < ONCE_MS && !form.hasAttribute('hx-post')) {
      event.preventDefault();
      return;
    }
    form.dataset.sending = String(Date.now());
    sentAgain(form, event.submitter);
    remember(form, event.submitter);
  });

  // Back to a page after sending its form, the browser fills in what was typed but the page
  // carries a new idempotency key: pressed again, the same form would do its work twice (a
  // second row, a second key). The page a form was sent from keeps, in its own history entry,
  // what was sent (as a digest, with the button pressed) and the key it went with; Back to that
  // page and the same press of the same form goes with that key, so the server answers as the
  // first time and does nothing more. Changed first, pressed on another button, or sent from a
  // page drawn later, it is a request of its own. A form holding a typed password is not kept.
  function asSent(form, pressed) {
    if (Array.from(form.querySelectorAll('input[type="password"]')).some((p) => p.value !== '')) return null;
    var data = new FormData(form);
    if (pressed?.name) data.append(pressed.name, pressed.value);
    data.delete('idempotency_key');
    data.delete('_csrf');
    if (Array.from(data.values()).some((v) => typeof v !== 'string')) return null;
    // FNV-1a: a digest to compare, so the history entry holds nothing that was typed.
    var text = `${form.action}\n${new URLSearchParams(data).toString()}`;
    var h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return `${text.length}:${h.toString(36)}`;
  }
  function sentFromHere() {
    return history.state?.deskSent || {};
  }
  function remember(form, pressed) {
    var key = form.querySelector('input[name="idempotency_key"]');
    var sent = key && asSent(form, pressed);
    if (!sent) return;
    var all = Object.assign({}, sentFromHere());
    all[form.action] = { sent, key: key.value };
    try {
      history.replaceState(Object.assign({}, history.state, { deskSent: all }), '');
    } catch {
      // A history entry that takes no more: the server's key still guards each page.
    }
  }
  function sentAgain(form, pressed) {
    var nav = performance.getEntriesByType('navigation')[0];
    var key = form.querySelector('input[name="idempotency_key"]');
    if (nav?.type !== 'back_forward' || !key) return;
    var was = sentFromHere()[form.action];
    if (was && was.sent === asSent(form, pressed)) key.value = was.key;
  }
  // A page shown again from the back-forward cache has sent nothing since.
  window.addEventListener('pageshow', () => {
    document.querySelectorAll('form[data-sending]').forEach((form) => {
      form.dataset.sending = '';
    });
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

  // A question that never reached the desk (the server stopped, the network went), or that the
  // desk could not take, says so where its answer would have been: htmx swaps in nothing then.
  // A mark a refused question left on the field goes with the answer area it pointed into.
  function unanswered(event, words) {
    var form = event.target;
    var answer = document.getElementById('chat-answer');
    if (!(form instanceof HTMLFormElement) || !form.querySelector('#chat-busy') || !answer) return;
    var said = document.createElement('p');
    said.className = 'field-error';
    said.setAttribute('role', 'alert');
    said.textContent = words;
    answer.replaceChildren(said);
    var field = document.getElementById('chat-text');
    field?.removeAttribute('aria-invalid');
    field?.removeAttribute('aria-describedby');
  }
  document.addEventListener('htmx:sendError', (event) =>
    unanswered(
      event,
      'The desk could not be reached, so the question was not asked. Check that Desk is running, then ask again.',
    ),
  );
  document.addEventListener('htmx:responseError', (event) =>
    unanswered(
      event,
      // A form older than the owner's last sign-in is refused as stale, however often it is sent.
      event.detail.xhr?.status === 403
        ? 'This page is out of date, so the question was not asked. Reload the page, then ask again.'
        : 'The desk could not answer just now. Ask again in a moment.',
    ),
  );

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
  // field where the page did not already give one the focus; else the control the form pressed,
  // when the address names it (a permission's switch); else what the page says of the press
  // (a notice, a test message's outcome), focused so that it is read out and the keyboard
  // starts there, and brought into view when it is below the first screenful.
  function lookHere() {
    if (document.querySelector('[autofocus]')) return;
    var refused = document.querySelector('[aria-invalid="true"]');
    if (refused) {
      refused.focus();
      return;
    }
    // A standing warning (a mailbox that did not get through) is on the page whatever was pressed;
    // what the press itself said is the place to look.
    var said = Array.from(
      document.querySelectorAll('[role="status"]:not([data-standing]), [role="alert"]:not([data-standing])'),
    ).find((e) => e.textContent.trim() !== '');
    // Named by the address, the control is where the browser's own move to it leaves the focus.
    var pressed = said && location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (pressed) {
      pressed.focus();
      return;
    }
    if (!said) return;
    if (said.getBoundingClientRect().top > window.innerHeight) said.scrollIntoView({ block: 'center' });
    // Only what a press said takes the focus: a notice, or a test's outcome, good or bad, or a
    // refusal of a whole form that no field is named by (a row changed meanwhile, say).
    var formRefused =
      said.classList.contains('field-error') &&
      !(said.id && document.querySelector('[aria-describedby~="' + said.id + '"]'));
    if (said.classList.contains('notice') || said.hasAttribute('data-outcome') || formRefused) {
      said.setAttribute('tabindex', '-1');
      said.focus({ preventScroll: true });
    }
  }

  document.addEventListener('DOMContentLoaded', () => {
    // A form's address may end in the place its answer is (for a browser without script, which
    // opens the answer there); with script, lookHere places the page and the focus instead.
    document.querySelectorAll('form[action*="#"]').forEach((f) => {
      f.setAttribute('action', f.getAttribute('action').split('#')[0]);
    });
    document.querySelectorAll('[data-run-events]').forEach(follow);
    lookHere();
  });
})();
