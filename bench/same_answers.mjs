// Checks that this service, PostGraphile 5 and PostGraphile 4 answered the
// nested catalogue query with the same data, for bench/compare.sh:
//   node same_answers.mjs BOXES ours.out pg5.out pg4.out
// Each answer is reduced to what all three hold: the boxes' French names in
// order, each box's offers' partner names in order, each partner's labels
// (name and logo URL) in order. Exits 1, saying what differs, when an answer
// has errors, has not BOXES boxes, or differs from this service's.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

const [boxes, ...files] = process.argv.slice(2);
const labels = (list, logo) => list.map((l) => [l.name, l[logo]]);
const partner = (p, reduce) => (p == null ? null : reduce(p));

// ours: boxes.edges.node { name { fr } offers.edges.node.partner { name labels { name logo } } }
const ours = (d) =>
  d.boxes.edges.map(({ node: b }) => ({
    box: b.name.fr,
    offers: b.offers.edges.map(({ node: o }) =>
      partner(o.partner, (p) => ({ partner: p.name, labels: labels(p.labels, "logo") })),
    ),
  }));
// PostGraphile: allNetworkVoucherBoxes.nodes { name (JSON: a string in 4,
// a value in 5) boxOffersByBoxId.nodes.partnerByPartnerId { name partnerLabelsByPartnerId.nodes } }
const postgraphile = (d) =>
  d.allNetworkVoucherBoxes.nodes.map((b) => ({
    box: (typeof b.name === "string" ? JSON.parse(b.name) : b.name).fr,
    offers: b.boxOffersByBoxId.nodes.map((o) =>
      partner(o.partnerByPartnerId, (p) => ({
        partner: p.name,
        labels: labels(p.partnerLabelsByPartnerId.nodes, "logoUrl"),
      })),
    ),
  }));

const fail = (msg) => {
  console.error(`answers differ: ${msg}`);
  process.exit(1);
};
const answers = files.map((file, i) => {
  const text = readFileSync(file, "utf8");
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    fail(`${file} is not JSON: ${text.slice(0, 300)}`);
  }
  if (body.errors || !body.data) fail(`${file} has errors: ${text.slice(0, 600)}`);
  const got = (i === 0 ? ours : postgraphile)(body.data);
  if (got.length !== Number(boxes)) fail(`${file} has ${got.length} boxes, not ${boxes}`);
  return { file, got };
});
const [first, ...others] = answers;
if (!first.got.some((b) => b.offers.some((o) => o && o.labels.length > 0))) {
  fail(`${first.file} has no labels at all: the data is not the bench data`);
}
for (const { file, got } of others) {
  const i = got.findIndex((b, j) => !isDeepStrictEqual(b, first.got[j]));
  if (i >= 0) {
    fail(`box ${i + 1}: ${first.file} has ${JSON.stringify(first.got[i])}, ${file} has ${JSON.stringify(got[i])}`);
  }
}
const offers = first.got.reduce((n, b) => n + b.offers.length, 0);
console.log(`same answers: ${boxes} boxes, ${offers} offers, in ${files.length} answers`);
