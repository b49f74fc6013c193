import { readBusiness } from '../../src/domain/business/read.ts';

// A business file with every kind of entry the format holds, and the secrets in it that must
// never come back out of the desk.

export const SECRETS = ['mail-pass-7781x', 'portal-s3cret-99', 'tok-abc123456789', 'listed-pw-4242', '58204617'];

export const EVERYTHING = `
desk: { name: Round Trip Cafe, slug: round-trip, plan: standard, timezone: America/New_York, currency: USD, broker: Sedo,
        hours: mon-sat 08:00-18:00, daily_cap: 7, act_within_days: 10, paused: true }
grants: [reach_out, file]
connections:
  - { ref: mailbox, provider: smtp, name: Shop mailbox, category: mail, auth_type: token, status: connected,
      config: { host: 127.0.0.1, port: 2525, secure: false, starttls: false, user: shop, pass: ${SECRETS[0]}, from: "Cafe <owner@cafe.test>" } }
  - { ref: portal, provider: gov-portal, name: Tax portal, category: filing, auth_type: login, status: error,
      config: { username: cafe, password: ${SECRETS[1]} } }
  - { provider: bank-feed, name: Bank feed, category: money, status: pending, config: { api_token: ${SECRETS[2]}, region: us, pin: "${SECRETS[4]}",
      accounts: [{ user: cafe, password: ${SECRETS[3]} }, { user: spare }] } }
sections:
  - { id: obligations, title: What keeps us open, blurb: Licences, kind: work, kinds: [licence_renewal, filing], why: A lapse shuts us. }
  - { id: sites, title: Sites, kind: units, unit: site, fields: [{ name: lease_end, hint: Date the lease ends }], why: Dates hang off sites. }
arrangements:
  - { ref: lease, name: Main St lease, counterparty: Acme Estates, kind: lease, status: active, starts_on: "2025-01-01",
      renews_on: "+40d", amount_cents: 1250000, contact_name: Jo Lane, contact_email: jo@acme.test }
  - { ref: cleaning, name: Cleaning contract, kind: service, status: ended, ends_on: "-10d" }
units:
  - { ref: main-st, type: site, name: 12 Main Street, fields: { lease_end: "+40d", floor_m2: 85, note: null }, arrangement: lease }
  - { ref: van, type: vehicle, name: Delivery van, fields: { mot_due: "2027-03-01" } }
watches:
  - { subject_type: site, field: lease_end, label: Lease renewal, lead_days: 60, kind: lease_renewal, action: commit, every: "365", priority: 70 }
  - { subject_type: vehicle, field: mot_due, label: MOT, lead_days: 30, kind: mot, action: reach_out }
domains:
  - { name: cafe.test, registrar: Gandi, status: live, renewal_on: "+90d", amount_cents: 1500, notes: Main site }
playbooks:
  - name: file-return
    connection: portal
    steps:
      - { goto: "http://127.0.0.1:8099/login" }
      - { fill: "#user", value: "{{secret.username}}" }
      - { fill: "#pass", value: "{{secret.password}}" }
      - { expect_text: "Return received" }
work:
  - { title: Get the oven repair quote, kind: repair, class: chase, priority: 60, due: "+2d", contact_name: Sam Oven,
      contact_email: sam@ovens.test, waiting_on: Sam Oven, waiting_since: "-12d", chase_after_days: 5, max_chases: 9, arrangement: lease }
  - { title: File the sales tax return, kind: filing, class: file, due: "-1d", priority: 80, playbook: file-return, status: in_progress }
  - { title: Sign the lease renewal, kind: lease_renewal, class: sign, needs_person: true, unit: main-st, due: "+30d" }
  - { title: Pay the flour invoice, kind: invoice, class: money, due: "+5d", contact_name: Mill Co, contact_email: accounts@mill.test,
      messages: [{ status: drafted, subject: Invoice 4471, body: "Paying on Friday." },
                 { status: sent, subject: Invoice 4470, body: "Paid, thank you.", to: ap@mill.test, actor: owner }] }
  - { title: Renew the hygiene certificate, kind: licence_renewal, due: "+20d", last_error: "Portal rejected the upload" }
  - { title: Confirm the delivery slot, kind: delivery, class: reach_out, status: waiting, waiting_on: Fresh Farm, detail: "Tuesdays only" }
  - { title: Book the MOT, kind: mot, class: commit, status: done, unit: van }
  - { title: Old supplier query, class: reach_out, status: closed, detail: "Supplier went out of business" }
`;

/** The errors `readBusiness` lists for a parsed file, one sentence each; none when it reads. */
export function fileErrors(doc: unknown, now: Date): string[] {
  try {
    readBusiness(doc, now);
  } catch (err) {
    return (err as { details?: { errors?: string[] } }).details?.errors ?? [String(err)];
  }
  return [];
}
