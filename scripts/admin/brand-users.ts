// Operator commands for a brand's dashboard accounts: create the first owner (by emailed invitation, or with a
// password), list the team, and print a fresh invitation or reset link when an email went astray.
import { getBrand } from "../../api/src/brands/service";
import { mailerFor } from "../../api/src/mail/mailer";
import { isRole, ROLES, type Role } from "../../api/src/team/roles";
import { createMemberWithPassword, inviteMember, listTeam } from "../../api/src/team/service";
import { brandOption, requiredOption, serviceConfig, stringOption, table, UsageError, type AdminCommand, type CommandContext } from "./command";

function roleOption(context: CommandContext, fallback: Role): Role {
  const role = stringOption(context, "role") ?? fallback;
  if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(", ")}`);
  return role;
}

const inviteCommand: AdminCommand = {
  name: "invite-brand-user",
  summary: "invite someone to a brand's dashboard (the brand's first owner by default); emails and prints the link",
  options: {
    ...brandOption,
    email: { type: "string", required: true, description: "their email address" },
    role: { type: "string", description: `${ROLES.join(" | ")} (default owner)` },
  },
  async run(context) {
    const cfg = serviceConfig(context);
    const brand = await getBrand(context.db, requiredOption(context, "brand"));
    const invitation = await inviteMember(
      { db: context.db, config: cfg, mailer: mailerFor(cfg) },
      { id: brand.id, name: brand.name },
      { system: "operator CLI" },
      { email: requiredOption(context, "email"), role: roleOption(context, "owner") },
    );
    const lines = [
      `Invited ${invitation.user.email} to ${brand.slug} as ${invitation.user.role}; the link works once, until ${invitation.expiresAt.toISOString()}:`,
      invitation.link,
      ...(invitation.mailFile ? [`The email is also in ${invitation.mailFile}`] : []),
    ];
    return {
      text: lines.join("\n"),
      json: { email: invitation.user.email, role: invitation.user.role, link: invitation.link, expires_at: invitation.expiresAt.toISOString(), mail_file: invitation.mailFile ?? null },
    };
  },
};

const createCommand: AdminCommand = {
  name: "create-brand-user",
  summary: "create a dashboard account with a password you give (e.g. a brand's first owner on a closed network)",
  options: {
    ...brandOption,
    email: { type: "string", required: true, description: "their email address" },
    role: { type: "string", description: `${ROLES.join(" | ")} (default owner)` },
    password: { type: "string", required: true, description: "at least 10 characters; they can change it in the dashboard" },
  },
  async run(context) {
    const brand = await getBrand(context.db, requiredOption(context, "brand"));
    const member = await createMemberWithPassword(context.db, brand.id, {
      email: requiredOption(context, "email"),
      role: roleOption(context, "owner"),
      password: requiredOption(context, "password"),
    });
    return { text: `${member.email} can sign in to ${brand.slug}'s dashboard as ${member.role}.`, json: { id: member.id, email: member.email, role: member.role } };
  },
};

const listCommand: AdminCommand = {
  name: "list-brand-users",
  summary: "list a brand's dashboard accounts and pending invitations",
  options: { ...brandOption },
  async run(context) {
    const brand = await getBrand(context.db, requiredOption(context, "brand"));
    const team = await listTeam(context.db, brand.id);
    return {
      text: table(
        ["ID", "EMAIL", "ROLE", "STATUS", "LAST SIGN-IN"],
        team.map((m) => [String(m.id), m.email, m.role, m.status, m.last_login_at ? new Date(m.last_login_at).toISOString() : "-"]),
      ),
      json: team,
    };
  },
};

export const commands = [inviteCommand, createCommand, listCommand];
