// A real DNS server for tests: dns2 over UDP on 127.0.0.1 (a free port), answering from a zone given as data that a
// test may change while it runs. The custom-domain checker asks it through node:dns (DNS_RESOLVERS), and pebble
// resolves the names it validates with it. Names it does not know answer NXDOMAIN; `silent` names get no answer at
// all, so a query times out.
import dns2 from "dns2";

export type ZoneRecord = { type: "A"; address: string } | { type: "CNAME"; target: string } | { type: "TXT"; strings: string[] };
/** Records by name (lower case, no trailing dot). */
export type Zone = Record<string, ZoneRecord[]>;

export type TestDnsServer = {
  /** `127.0.0.1:<port>`, as DNS_RESOLVERS and pebble's -dnsserver take it. */
  address: string;
  zone: Zone;
  /** Names queried so far, with their type (e.g. "TXT _passport-verify.shop.test"). */
  queries: string[];
  close: () => Promise<void>;
};

const { Packet } = dns2;
/** A chain of CNAMEs inside the zone is followed this far when answering an A query, as a resolver would. */
const MAX_CHASE = 10;

export async function startDnsServer(zone: Zone, options: { silent?: string[] } = {}): Promise<TestDnsServer> {
  const silent = new Set(options.silent ?? []);
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const question = request.questions[0];
      if (!question) return;
      const name = question.name.toLowerCase().replace(/\.$/, "");
      queries.push(`${Packet.typeName(question.type)} ${name}`);
      if (silent.has(name)) return;
      const response = Packet.createResponseFromRequest(request);
      response.header.aa = 1;
      if (!zone[name]) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
        void send(response);
        return;
      }
      response.answers.push(...answersFor(zone, name, question.type).map((record) => resource(record.name, record.record)));
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  const port = addresses.udp!.port;
  return { address: `127.0.0.1:${port}`, zone, queries, close: () => server.close() };
}

/** The records answering a query: of its type, or for A the CNAME chain (in the zone) and the A records at its end. */
function answersFor(zone: Zone, name: string, type: number): Array<{ name: string; record: ZoneRecord }> {
  const of = (at: string, wanted: ZoneRecord["type"]) => (zone[at] ?? []).filter((record) => record.type === wanted).map((record) => ({ name: at, record }));
  if (type === Packet.TYPE.CNAME) return of(name, "CNAME");
  if (type === Packet.TYPE.TXT) return of(name, "TXT");
  if (type !== Packet.TYPE.A) return [];
  const answers: Array<{ name: string; record: ZoneRecord }> = [];
  let at = name;
  for (let hop = 0; hop < MAX_CHASE; hop++) {
    const cname = of(at, "CNAME")[0];
    if (!cname) break;
    answers.push(cname);
    at = (cname.record as { target: string }).target;
  }
  return [...answers, ...of(at, "A")];
}

function resource(name: string, record: ZoneRecord): dns2.Packet.Resource {
  const question = (type: number) => new Packet.Question(name, type, Packet.CLASS.IN);
  if (record.type === "A") return Packet.createResourceFromQuestion(question(Packet.TYPE.A), { ttl: 5, address: record.address });
  if (record.type === "CNAME") return Packet.createResourceFromQuestion(question(Packet.TYPE.CNAME), { ttl: 5, domain: record.target });
  return Packet.createResourceFromQuestion(question(Packet.TYPE.TXT), { ttl: 5, data: record.strings });
}
