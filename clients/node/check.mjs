// A Node.js client of the oracle's gRPC API (@grpc/grpc-js and @grpc/proto-loader, loading the .proto files as
// `canasta-oracle proto --out DIR` writes them). It deals a hand, asks CheckAction about a legal and an illegal
// action, and referees the start of a game over the RefereeGame stream; it prints one JSON object per answer, one
// per line, for tests/test_node_client.py to check.
//
//   node check.mjs --address HOST:PORT --proto DIR [--rules ID] [--seed N]
//
// Exit status: 0 when every call answered (whatever the verdicts), 2 on a usage error or a failed call.

import path from "node:path";
import { parseArgs } from "node:util";

import grpc from "@grpc/grpc-js";
import protoLoader from "@grpc/proto-loader";

const DEADLINE_MS = 10_000;

function usage(message) {
  console.error(`check.mjs: ${message}`);
  console.error("usage: node check.mjs --address HOST:PORT --proto DIR [--rules ID] [--seed N]");
  process.exit(2);
}

function options() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        address: { type: "string" },
        proto: { type: "string" },
        rules: { type: "string", default: "classic-2p" },
        seed: { type: "string", default: "7" },
      },
      strict: true,
    }));
  } catch (err) {
    usage(err.message);
  }
  if (!values.address) usage("--address is required");
  if (!values.proto) usage("--proto is required");
  if (!/^\d+$/.test(values.seed)) usage(`--seed must be a non-negative integer, not '${values.seed}'`);
  return values;
}

function client(address, protoRoot) {
  const definition = protoLoader.loadSync(path.join("oracle", "api", "v1", "oracle.proto"), {
    includeDirs: [protoRoot],
    keepCase: true, // field names as in the .proto files (snake_case)
    enums: String, // enum values by name: "CARD_KH", "PHASE_DRAW"
    longs: String,
    defaults: true,
    oneofs: true, // each oneof's name tells which member is set
  });
  const api = grpc.loadPackageDefinition(definition).oracle.api.v1;
  return new api.OracleService(address, grpc.credentials.createInsecure());
}

function deadline() {
  return new Date(Date.now() + DEADLINE_MS);
}

function unary(stub, rpc, request) {
  return new Promise((resolve, reject) => {
    stub[rpc](request, { deadline: deadline() }, (err, response) => (err ? reject(err) : resolve(response)));
  });
}

// One answer as a line: the verdict's legality and violation codes (sorted).
function verdictLine(call, action, verdict) {
  const codes = (verdict.violations || []).map((v) => v.code).sort();
  return { call, action, legal: verdict.legal, codes };
}

// Sends the messages one at a time, each after the previous answer, and collects the answers.
function referee(stub, messages) {
  return new Promise((resolve, reject) => {
    const call = stub.RefereeGame({ deadline: deadline() });
    const answers = [];
    let next = 0;
    const send = () => {
      if (next < messages.length) call.write(messages[next++]);
      else call.end();
    };
    call.on("data", (answer) => {
      answers.push(answer);
      send();
    });
    call.on("error", reject);
    call.on("end", () => resolve(answers));
    send();
  });
}

async function main() {
  const opts = options();
  const stub = client(opts.address, opts.proto);
  const rule_set = { id: opts.rules };
  const lines = [];

  // CheckAction on a freshly dealt hand: drawing is legal, discarding before drawing is not.
  const { state } = await unary(stub, "DealHand", { rule_set, seed: opts.seed, dealer: 0 });
  const mover = state.seats[state.seat_to_move];
  const card = mover.hand[0];
  lines.push({ call: "DealHand", seat_to_move: state.seat_to_move, phase: state.phase, hand: mover.hand.length });
  const draw = await unary(stub, "CheckAction", { rule_set, state, action: { draw: {} } });
  lines.push(verdictLine("CheckAction", "draw", draw));
  const early = await unary(stub, "CheckAction", { rule_set, state, action: { discard: { card } } });
  lines.push(verdictLine("CheckAction", `discard ${card}`, early));
  // The same discard in the oracle's action notation (a card enum name less its CARD_ prefix): the same verdict, and
  // the answer carries the notation.
  const text = `discard ${card.replace(/^CARD_/, "")}`;
  const written = await unary(stub, "CheckAction", { rule_set, state, action_text: text });
  lines.push({ ...verdictLine("CheckAction", text, written), notation: written.notation });

  // RefereeGame: start, deal the same hand, then discard before drawing (illegal), draw (legal) and discard a card
  // held (legal): the game moves on only with the legal ones.
  const answers = await referee(stub, [
    { start: { rule_set, first_dealer: 0, full_state: true } }, // the whole state after every action
    { deal: { seed: opts.seed } },
    { action: { discard: { card } } },
    { action: { draw: {} } },
    { action: { discard: { card } } },
  ]);
  const said = ["start", "deal", `discard ${card}`, "draw", `discard ${card}`];
  answers.forEach((answer, i) => {
    const line = verdictLine("RefereeGame", said[i], answer.verdict || { legal: false, violations: [] });
    line.error = answer.error;
    line.seat_to_move = answer.state ? answer.state.seat_to_move : null;
    line.phase = answer.state ? answer.state.phase : null;
    lines.push(line);
  });
  stub.close();
  for (const line of lines) console.log(JSON.stringify(line));
}

main().catch((err) => {
  console.error(`check.mjs: ${err.code !== undefined ? `gRPC status ${err.code}: ` : ""}${err.details || err.message}`);
  process.exit(2);
});
