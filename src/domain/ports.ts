// The mailer interface the domain sends through. The real one speaks SMTP (smtp.ts).

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface MailConnection {
  provider: string;
  /** The connection's stored settings (host, port, secure, user, pass, from). */
  config: Record<string, unknown>;
}

export type SendResult =
  | { accepted: true; messageId: string | null; response: string | null }
  | { accepted: false; reason: string };

export interface Mailer {
  send(connection: MailConnection, mail: OutgoingMail): Promise<SendResult>;
}
