// JSON Schemas of the dashboard's Domain screen: the brand's addresses, and the custom domain's verification.
import { HOSTNAME_MAX } from "../../../domains/hostnames";
import type { JsonSchema } from "../../../validation";
import { TIMESTAMP } from "../base";

export const addDomainBody = {
  type: "object",
  additionalProperties: false,
  required: ["hostname"],
  properties: {
    // Room for a trailing dot and surrounding spaces, which are dropped; the service checks the name itself.
    hostname: { type: "string", minLength: 1, maxLength: HOSTNAME_MAX + 8, description: "your shop's hostname, e.g. shop.example.com (not the apex of a domain)" },
  },
} as const;

const NULLABLE_TIME: JsonSchema = { ...TIMESTAMP, type: ["string", "null"] };

const stepSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["status", "checked_at", "detail"],
  properties: {
    status: { enum: ["passed", "failed", "not_checked"], description: "the step's last result" },
    checked_at: { ...NULLABLE_TIME, description: "when it was last checked" },
    detail: { type: ["string", "null"], description: "what the check found, in words" },
  },
};

const recordSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["type", "name", "value"],
  properties: {
    type: { enum: ["CNAME", "TXT"] },
    name: { type: "string", description: "the record's name, in full" },
    value: { type: "string", description: "its value" },
  },
};

export const domainOverviewSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["subdomain", "plan", "custom_domain_allowed", "custom_domain"],
  properties: {
    subdomain: {
      type: "object",
      additionalProperties: false,
      required: ["host", "url"],
      description: "every brand's address: <slug>.<BASE_DOMAIN>",
      properties: { host: { type: "string" }, url: { type: "string", format: "uri" } },
    },
    plan: { type: "string" },
    custom_domain_allowed: { type: "boolean", description: "whether the plan includes a custom domain (Growth and above)" },
    custom_domain: {
      type: ["object", "null"],
      additionalProperties: false,
      required: ["hostname", "url", "status", "records", "steps", "created_at", "next_check_at", "window_ends_at", "verified_at", "failed_at", "failure_reason"],
      properties: {
        hostname: { type: "string" },
        url: { type: "string", format: "uri", description: "where the brand is served once verified" },
        status: {
          enum: ["pending", "verified", "failed", "released"],
          description: "pending until both steps pass; failed when the window ends first; released when another brand verified the hostname first (failure_reason says so)",
        },
        records: { type: "array", maxItems: 2, items: recordSchema, description: "the DNS records to create: the CNAME, then the TXT token" },
        steps: {
          type: "object",
          additionalProperties: false,
          required: ["cname", "txt"],
          properties: { cname: { ...stepSchema, description: "the hostname is a CNAME of our target" }, txt: { ...stepSchema, description: "the TXT record holds the token" } },
        },
        created_at: TIMESTAMP,
        next_check_at: { ...NULLABLE_TIME, description: "when the checker looks next (null once verified or failed)" },
        window_ends_at: { ...TIMESTAMP, description: "when a domain still not verified is marked failed" },
        verified_at: NULLABLE_TIME,
        failed_at: NULLABLE_TIME,
        failure_reason: { type: ["string", "null"] },
      },
    },
  },
};

export const DOMAIN_OVERVIEW_EXAMPLE = {
  subdomain: { host: "demo-apparel.passports.example", url: "https://demo-apparel.passports.example" },
  plan: "growth",
  custom_domain_allowed: true,
  custom_domain: {
    hostname: "shop.demo-apparel.com",
    url: "https://shop.demo-apparel.com",
    status: "pending",
    records: [
      { type: "CNAME", name: "shop.demo-apparel.com", value: "passports.example" },
      { type: "TXT", name: "_passport-verify.shop.demo-apparel.com", value: "4f1c2b9e0d8a7c6b5a4f3e2d1c0b9a8f" },
    ],
    steps: {
      cname: { status: "passed", checked_at: "2026-11-23T10:02:00.000Z", detail: "shop.demo-apparel.com is a CNAME of passports.example." },
      txt: { status: "failed", checked_at: "2026-11-23T10:02:00.000Z", detail: "_passport-verify.shop.demo-apparel.com has no TXT record." },
    },
    created_at: "2026-11-23T10:01:00.000Z",
    next_check_at: "2026-11-23T10:04:00.000Z",
    window_ends_at: "2026-11-24T10:01:00.000Z",
    verified_at: null,
    failed_at: null,
    failure_reason: null,
  },
};
