// The screen's only script (the Content-Security-Policy allows no inline script): a run's
// steps as they happen, and a form that is not sent twice by a second click. The server
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
  document.addEventListener('htmx:afterRequest', (event) => {
    var form = event.target;
    if (form instanceof HTMLFormElement) form.dataset.sending = '';
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
      outcome.textContent = JSON.parse(e.data).outcome;
      section.setAttribute('data-run-finished', 'yes');
      source.close();
    });
  }

  document.addEventListener('DOMContentLoaded', () => {
    document.querySelectorAll('[data-run-events]').forEach(follow);
  });
})();
