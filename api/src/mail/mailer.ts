// Outgoing mail: invitations and password resets. Sent by SMTP through nodemailer when SMTP_URL is set; in local mode
// every message is also written to MAIL_DIR (.data/mail) as an .eml file, so the link can be read without a server.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../config";
import { ServiceUnavailableError } from "../errors";

export type MailMessage = { to: string; subject: string; text: string; html?: string };

export type SentMail = { messageId: string; file?: string };

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
}

/** The mailer `config` describes; one per configuration object, so its SMTP connection pool is shared. */
export function mailerFor(config: Config): Mailer {
  let mailer = mailers.get(config);
  if (!mailer) mailers.set(config, (mailer = new ConfiguredMailer(config)));
  return mailer;
}

const mailers = new WeakMap<Config, Mailer>();

class ConfiguredMailer implements Mailer {
  private readonly smtp;
  // Builds the raw message (headers, MIME) without sending it; the file copy is exactly what SMTP would carry.
  private readonly render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

  constructor(private readonly config: Config) {
    this.smtp = config.mail.smtpUrl ? nodemailer.createTransport(config.mail.smtpUrl, { from: config.mail.from }) : undefined;
  }

  async send(message: MailMessage): Promise<SentMail> {
    const { smtpUrl, from, dir } = this.config.mail;
    if (!smtpUrl && !dir) throw new ServiceUnavailableError("No mail transport is configured (set SMTP_URL).");
    const envelope = { from, to: message.to, subject: message.subject, text: message.text, html: message.html };
    let file: string | undefined;
    let messageId = "";
    if (dir) {
      const rendered = await this.render.sendMail(envelope);
      messageId = rendered.messageId;
      await mkdir(dir, { recursive: true, mode: 0o700 });
      file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${safeName(message.to)}.eml`);
      await writeFile(file, rendered.message as Buffer, { mode: 0o600 });
    }
    if (this.smtp) messageId = (await this.smtp.sendMail(envelope)).messageId;
    return { messageId, file };
  }
}

function safeName(address: string): string {
  return address.toLowerCase().replace(/[^a-z0-9@.-]/g, "_").slice(0, 80);
}
