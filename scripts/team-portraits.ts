/**
 * `npx node scripts/team-portraits.ts [id …]`: draws the team portraits in src/assets/team/ as blueprint line
 * art (paper, drafting grid, navy strokes, one copper dimension line). Each person is a row in `people`: face
 * proportions, hair, clothing, glasses, beard. Add a row for a new colleague, run the script, then describe
 * the drawing in the entry's `portrait.alt`. Without ids it redraws everyone.
 */
import { writeFileSync } from 'node:fs';

const C = {
  paper: '#f7f5f0',
  skin: '#fbfaf7',
  grid: '#d6dcdf',
  frame: '#4f6473',
  ink: '#0f3556',
  line: '#16466e',
  wash: '#e6eef3',
  hairDark: '#c9d8e3',
  hairLight: '#f1f4f6',
  accent: '#c8581c',
};
const W = 320;
const cx = 160;
const cy = 150;
const r = (n: number) => Math.round(n * 10) / 10;
/** A path string whose numbers are rounded to one decimal. */
const P = (strings: TemplateStringsArray, ...values: number[]) =>
  strings.reduce((out, str, i) => out + str + (i < values.length ? r(values[i]!) : ''), '');

interface PathStyle {
  fill?: string;
  stroke?: string;
  width?: number;
  extra?: string;
}

type Clothing =
  | 'shirt'
  | 'openShirtJacket'
  | 'blazerRound'
  | 'pointedCollar'
  | 'sweaterShirt'
  | 'zipJacket'
  | 'turtleneckJacket'
  | 'polo'
  | 'roundTop';
type Hair =
  | 'shortGrey'
  | 'shortDark'
  | 'closeCrop'
  | 'receding'
  | 'curly'
  | 'wavyBack'
  | 'bun'
  | 'shoulderSide'
  | 'longStraight'
  | 'bobFringe';

/** One person's drawing: face proportions and what they wear. */
interface Person {
  hair: Hair;
  clothing: Clothing;
  glasses?: 'rect' | 'round';
  beard?: 'trimmed' | 'full' | 'stubble' | 'moustache';
  earrings?: boolean;
  rx?: number;
  ry?: number;
  jaw?: number;
  chin?: number;
  brow?: number;
  browLift?: number;
  smile?: number;
  mouthW?: number;
  mouthY?: number;
  eyeY?: number;
  eyeDx?: number;
  shoulders?: number;
  clothFill?: string;
}

interface Face {
  rx: number;
  ry: number;
  top: number;
  d: string;
}

interface HairDrawing {
  hairline: (f: Face) => string;
  back?: (f: Face) => string;
  front?: (f: Face) => string;
}

function path(d: string, { fill = 'none', stroke = C.line, width = 2, extra = '' }: PathStyle = {}): string {
  return `<path d="${d}" fill="${fill}" stroke="${stroke}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"${extra}/>`;
}

function background(): string {
  const lines = [];
  for (let v = 16; v < W; v += 16) lines.push(`M0 ${v}H${W}M${v} 0V${W}`);
  return [
    `<rect width="${W}" height="${W}" fill="${C.paper}"/>`,
    `<path d="${lines.join('')}" fill="none" stroke="${C.grid}" stroke-width="1" opacity="0.55"/>`,
    `<rect x="10" y="10" width="${W - 20}" height="${W - 20}" fill="none" stroke="${C.frame}" stroke-width="1.2"/>`,
    // Ruler ticks along the left edge, every 8 px, longer every 32 px.
    path(
      Array.from({ length: 36 }, (_, i) => {
        const y = 24 + i * 8;
        return `M10 ${y}H${i % 4 === 0 ? 20 : 15}`;
      }).join(''),
      { stroke: C.frame, width: 1 },
    ),
  ].join('\n');
}

/** Face geometry: temples, jaw and chin; the top edge is the hairline the hair style gives. */
function face(p: Person, hairline: (f: Face) => string): Face {
  const rx = p.rx ?? 44;
  const ry = p.ry ?? 56;
  const jaw = p.jaw ?? 0.84;
  const chin = p.chin ?? 0.36;
  const top = cy - 18;
  const f: Face = { rx, ry, top, d: '' };
  const line = hairline(f);
  f.d =
    P`M${cx - rx} ${top}C${cx - rx} ${cy + 22} ${cx - rx * jaw} ${cy + ry * 0.72} ${cx - rx * chin} ${cy + ry * 0.95}Q${cx} ${cy + ry * 1.08} ${cx + rx * chin} ${cy + ry * 0.95}C${cx + rx * jaw} ${cy + ry * 0.72} ${cx + rx} ${cy + 22} ${cx + rx} ${top}` +
    line +
    'Z';
  return f;
}

function ears(f: Face): string {
  const l = cx - f.rx + 1;
  const rr = cx + f.rx - 1;
  return [
    path(P`M${l} ${cy - 10}C${l - 13} ${cy - 16} ${l - 14} ${cy + 14} ${l + 1} ${cy + 14}`, { fill: C.skin }),
    path(P`M${l - 4} ${cy - 4}C${l - 8} ${cy} ${l - 6} ${cy + 6} ${l - 2} ${cy + 7}`, { width: 1.2 }),
    path(P`M${rr} ${cy - 10}C${rr + 13} ${cy - 16} ${rr + 14} ${cy + 14} ${rr - 1} ${cy + 14}`, {
      fill: C.skin,
    }),
    path(P`M${rr + 4} ${cy - 4}C${rr + 8} ${cy} ${rr + 6} ${cy + 6} ${rr + 2} ${cy + 7}`, { width: 1.2 }),
  ].join('\n');
}

function features(p: Person, f: Face): string {
  const ey = cy + (p.eyeY ?? -2);
  const dx = p.eyeDx ?? f.rx * 0.43;
  const out = [];
  for (const s of [-1, 1]) {
    const x = cx + s * dx;
    out.push(path(P`M${x - 7} ${ey}Q${x} ${ey - 5.5} ${x + 7} ${ey}`, { width: 1.6 }));
    out.push(path(P`M${x - 5} ${ey + 0.5}Q${x} ${ey + 3} ${x + 5} ${ey + 0.5}`, { width: 1 }));
    out.push(`<circle cx="${r(x)}" cy="${r(ey - 0.8)}" r="2.1" fill="${C.ink}"/>`);
    const lift = p.browLift ?? 0;
    const bw = p.brow ?? 1.8;
    const inner = x - s * 8;
    const outer = x + s * 9;
    out.push(
      path(P`M${inner} ${ey - 10 - lift}Q${x} ${ey - 14.5 - lift} ${outer} ${ey - 10.5 - lift}`, {
        width: bw,
      }),
    );
  }
  // Nose and mouth.
  const nl = f.ry * 0.44;
  out.push(
    path(
      P`M${cx - 2} ${ey + 5}C${cx - 3} ${ey + nl * 0.6} ${cx - 8} ${ey + nl * 0.88} ${cx - 4} ${ey + nl}Q${cx} ${ey + nl + 2} ${cx + 5} ${ey + nl - 1}`,
      { width: 1.5 },
    ),
  );
  const my = ey + (p.mouthY ?? f.ry * 0.66);
  const mw = p.mouthW ?? 11;
  const smile = p.smile ?? 3.5;
  out.push(path(P`M${cx - mw} ${my}Q${cx} ${my + smile} ${cx + mw} ${my}`, { width: 1.7 }));
  out.push(
    path(
      P`M${cx - mw * 0.5} ${my + smile + 4}Q${cx} ${my + smile + 5.5} ${cx + mw * 0.5} ${my + smile + 4}`,
      { width: 1 },
    ),
  );
  return out.join('\n');
}

function neck(f: Face): string {
  const y0 = cy + f.ry * 0.78;
  return (
    path(
      P`M${cx - 17} ${y0}C${cx - 16} ${y0 + 18} ${cx - 18} ${y0 + 28} ${cx - 20} 240M${cx + 17} ${y0}C${cx + 16} ${y0 + 18} ${cx + 18} ${y0 + 28} ${cx + 20} 240`,
      {
        width: 2,
      },
    ) +
    path(P`M${cx - 18} 240L${cx - 17} ${y0}Q${cx} ${y0 + 12} ${cx + 17} ${y0}L${cx + 18} 240Z`, {
      fill: C.skin,
      stroke: 'none',
      width: 0,
    })
  );
}

function torso(p: Person): string {
  const sw = p.shoulders ?? 122;
  const d = P`M${cx - sw} 311C${cx - sw + 2} 276 ${cx - sw + 30} 252 ${cx - 36} 244L${cx - 20} 238L${cx + 20} 238L${cx + 36} 244C${cx + sw - 30} 252 ${cx + sw - 2} 276 ${cx + sw} 311Z`;
  return path(d, { fill: p.clothFill ?? C.wash, width: 2.2, stroke: C.ink });
}

const clothing: Record<Clothing, () => string> = {
  shirt: () =>
    [
      path(
        P`M${cx - 20} 236L${cx - 30} 256L${cx - 6} 262L${cx} 246L${cx + 6} 262L${cx + 30} 256L${cx + 20} 236`,
        { fill: C.paper },
      ),
      path(P`M${cx} 250V311`, { width: 1.4 }),
      ...[276, 296].map(
        (y) => `<circle cx="${cx + 5}" cy="${y}" r="2" fill="none" stroke="${C.line}" stroke-width="1.2"/>`,
      ),
      path(
        P`M${cx - 62} 272C${cx - 58} 288 ${cx - 56} 300 ${cx - 56} 311M${cx + 62} 272C${cx + 58} 288 ${cx + 56} 300 ${cx + 56} 311`,
        { width: 1.2 },
      ),
    ].join('\n'),
  openShirtJacket: () =>
    [
      path(P`M${cx - 20} 237L${cx} 272L${cx + 20} 237`, { fill: C.skin }),
      path(P`M${cx - 20} 236L${cx - 28} 254L${cx - 8} 258M${cx + 20} 236L${cx + 28} 254L${cx + 8} 258`, {
        width: 1.6,
      }),
      path(
        P`M${cx - 36} 244L${cx - 44} 266L${cx - 30} 272L${cx - 8} 311M${cx + 36} 244L${cx + 44} 266L${cx + 30} 272L${cx + 8} 311`,
        { width: 1.8, stroke: C.ink },
      ),
      path(P`M${cx - 8} 258L${cx} 272L${cx + 8} 258`, { width: 1.2 }),
      path(P`M${cx - 60} 290H${cx - 40}`, { width: 1.2 }),
    ].join('\n'),
  blazerRound: () =>
    [
      path(P`M${cx - 24} 239Q${cx} 262 ${cx + 24} 239`, { width: 1.6, fill: C.skin }),
      path(
        P`M${cx - 36} 244L${cx - 46} 266L${cx - 32} 274L${cx - 10} 311M${cx + 36} 244L${cx + 46} 266L${cx + 32} 274L${cx + 10} 311`,
        { width: 1.8, stroke: C.ink },
      ),
      path(P`M${cx - 28} 262Q${cx} 276 ${cx + 28} 262`, { width: 1.1 }),
    ].join('\n'),
  pointedCollar: () =>
    [
      path(
        P`M${cx - 20} 236L${cx - 32} 258L${cx - 4} 260L${cx} 244L${cx + 4} 260L${cx + 32} 258L${cx + 20} 236`,
        { fill: C.paper },
      ),
      path(P`M${cx} 252V311`, { width: 1.4 }),
      `<circle cx="${cx + 5}" cy="284" r="2" fill="none" stroke="${C.line}" stroke-width="1.2"/>`,
    ].join('\n'),
  sweaterShirt: () =>
    [
      path(P`M${cx - 30} 242Q${cx} 270 ${cx + 30} 242`, { width: 1.8, fill: C.paper }),
      path(P`M${cx - 27} 247Q${cx} 274 ${cx + 27} 247`, { width: 1 }),
      path(P`M${cx - 18} 238L${cx - 14} 256L${cx} 248L${cx + 14} 256L${cx + 18} 238`, {
        width: 1.5,
        fill: C.paper,
      }),
      path(
        Array.from({ length: 6 }, (_, i) => P`M${cx - 100 + i * 6} 306V311M${cx + 70 + i * 6} 306V311`).join(
          '',
        ),
        { width: 1 },
      ),
    ].join('\n'),
  zipJacket: () =>
    [
      path(
        P`M${cx - 24} 226L${cx - 26} 248Q${cx} 256 ${cx + 26} 248L${cx + 24} 226Q${cx} 234 ${cx - 24} 226Z`,
        { fill: C.wash, stroke: C.ink, width: 1.8 },
      ),
      path(P`M${cx} 236V311`, { width: 1.4 }),
      path(Array.from({ length: 9 }, (_, i) => P`M${cx - 2.5} ${258 + i * 6}H${cx + 2.5}`).join(''), {
        width: 1,
      }),
      path(
        P`M${cx - 72} 268L${cx - 58} 311M${cx + 72} 268L${cx + 58} 311M${cx - 54} 280H${cx - 24}M${cx + 24} 280H${cx + 54}`,
        { width: 1.2 },
      ),
    ].join('\n'),
  turtleneckJacket: () =>
    [
      path(
        P`M${cx - 21} 220L${cx - 23} 246Q${cx} 254 ${cx + 23} 246L${cx + 21} 220Q${cx} 228 ${cx - 21} 220Z`,
        { fill: C.paper, width: 1.8 },
      ),
      path(P`M${cx - 22} 229Q${cx} 237 ${cx + 22} 229M${cx - 22} 237Q${cx} 245 ${cx + 22} 237`, { width: 1 }),
      path(
        P`M${cx - 36} 246L${cx - 48} 270L${cx - 34} 276L${cx - 24} 311M${cx + 36} 246L${cx + 48} 270L${cx + 34} 276L${cx + 24} 311`,
        { width: 1.8, stroke: C.ink },
      ),
    ].join('\n'),
  polo: () =>
    [
      path(
        P`M${cx - 20} 236L${cx - 34} 250L${cx - 8} 256L${cx} 244L${cx + 8} 256L${cx + 34} 250L${cx + 20} 236`,
        { fill: C.paper },
      ),
      path(P`M${cx - 5} 250V280H${cx + 5}V250`, { width: 1.3 }),
      ...[262, 273].map(
        (y) => `<circle cx="${cx}" cy="${y}" r="1.8" fill="none" stroke="${C.line}" stroke-width="1.1"/>`,
      ),
    ].join('\n'),
  roundTop: () =>
    [
      path(P`M${cx - 28} 240Q${cx} 268 ${cx + 28} 240`, { width: 1.8, fill: C.skin }),
      path(P`M${cx - 70} 262Q${cx - 60} 290 ${cx - 64} 311M${cx + 70} 262Q${cx + 60} 290 ${cx + 64} 311`, {
        width: 1.1,
      }),
    ].join('\n'),
};

/** Hair: `hairline` closes the face, `back` is drawn behind it, `front` over it. */
const skull = ({ rx, ry }: Face) =>
  P`C${cx + rx} ${cy - ry * 1.28} ${cx - rx} ${cy - ry * 1.28} ${cx - rx} ${cy - 18}`;
const browLine = (depth: number, { rx }: Face) =>
  P`C${cx + rx} ${cy - 36} ${cx + rx * 0.55} ${cy - depth} ${cx} ${cy - depth}C${cx - rx * 0.55} ${cy - depth} ${cx - rx} ${cy - 36} ${cx - rx} ${cy - 18}`;
const dome = ({ rx, ry }: Face, grow = 4, lift = 1.42, bottom = -6) =>
  P`M${cx - rx - grow} ${cy + bottom}C${cx - rx - grow - 4} ${cy - ry * lift} ${cx + rx + grow + 4} ${cy - ry * lift} ${cx + rx + grow} ${cy + bottom}Z`;

function hairStyle(style: Hair): HairDrawing {
  const fill = C.hairDark;
  const solid = (d: string, f = fill) => path(d, { fill: f, stroke: C.ink, width: 2 });
  const strands = (list: string[]) => path(list.join(''), { width: 1.1 });
  switch (style) {
    case 'shortGrey':
      return {
        hairline: (f) => browLine(44, f),
        back: (f) => solid(dome(f, 4, 1.4), C.hairLight),
        front: (f) =>
          strands([
            P`M${cx - 30} ${cy - 48}Q${cx - 8} ${cy - 62} ${cx + 20} ${cy - 58}`,
            P`M${cx - 26} ${cy - 58}Q${cx} ${cy - 70} ${cx + 30} ${cy - 64}`,
            P`M${cx + 14} ${cy - 48}Q${cx + 32} ${cy - 50} ${cx + f.rx - 2} ${cy - 32}`,
            P`M${cx - f.rx - 2} ${cy - 20}Q${cx - f.rx} ${cy - 44} ${cx - 26} ${cy - 58}`,
          ]),
      };
    case 'shortDark':
      return {
        hairline: (f) =>
          P`C${cx + f.rx} ${cy - 34} ${cx + f.rx * 0.6} ${cy - 44} ${cx + 8} ${cy - 42}C${cx - 14} ${cy - 40} ${cx - 22} ${cy - 48} ${cx - 30} ${cy - 44}C${cx - f.rx} ${cy - 38} ${cx - f.rx} ${cy - 30} ${cx - f.rx} ${cy - 18}`,
        back: (f) => solid(dome(f, 4, 1.42)),
        front: () =>
          strands([
            P`M${cx - 18} ${cy - 52}Q${cx + 4} ${cy - 66} ${cx + 30} ${cy - 56}`,
            P`M${cx - 34} ${cy - 46}Q${cx - 30} ${cy - 62} ${cx - 6} ${cy - 70}`,
          ]),
      };
    case 'closeCrop':
      return {
        hairline: (f) => browLine(42, f),
        back: (f) =>
          path(dome(f, 2, 1.34), { fill: C.wash, stroke: C.ink, width: 1.8 }) +
          path(
            Array.from({ length: 9 }, (_, i) => {
              const x = cx - 32 + i * 8;
              const y = cy - 44 - Math.sin((Math.PI * (i + 0.5)) / 9) * 14;
              return P`M${x} ${y}l1.5 -5`;
            }).join(''),
            { width: 1 },
          ),
      };
    case 'receding':
      return {
        hairline: skull,
        front: (f) =>
          solid(
            P`M${cx - f.rx - 1} ${cy - 2}C${cx - f.rx - 4} ${cy - 30} ${cx - f.rx + 2} ${cy - 48} ${cx - 26} ${cy - 58}C${cx - 30} ${cy - 42} ${cx - f.rx + 8} ${cy - 32} ${cx - f.rx + 3} ${cy - 2}Z`,
          ) +
          solid(
            P`M${cx + f.rx + 1} ${cy - 2}C${cx + f.rx + 4} ${cy - 30} ${cx + f.rx - 2} ${cy - 48} ${cx + 26} ${cy - 58}C${cx + 30} ${cy - 42} ${cx + f.rx - 8} ${cy - 32} ${cx + f.rx - 3} ${cy - 2}Z`,
          ) +
          strands([
            P`M${cx - 16} ${cy - 66}Q${cx} ${cy - 69} ${cx + 16} ${cy - 66}`,
            P`M${cx - 9} ${cy - 61}Q${cx} ${cy - 63} ${cx + 9} ${cy - 61}`,
          ]),
      };
    case 'curly':
      return {
        hairline: (f) => browLine(40, f),
        back: (f) => {
          const n = 12;
          const pts: [number, number][] = [];
          for (let i = 0; i <= n; i++) {
            const a = Math.PI * (1.06 - (1.12 * i) / n);
            pts.push([cx + Math.cos(a) * (f.rx + 9), cy - 16 - Math.sin(a) * (f.ry * 1.02)]);
          }
          const [x0, y0] = pts[0]!;
          let d = P`M${x0} ${y0 + 10}L${x0} ${y0}`;
          for (let i = 1; i < pts.length; i++) {
            const [x0, y0] = pts[i - 1]!;
            const [x1, y1] = pts[i]!;
            const mx = (x0 + x1) / 2;
            const my = (y0 + y1) / 2;
            const nx = mx - cx;
            const ny = my - (cy - 16);
            const len = Math.hypot(nx, ny);
            d += P`Q${mx + (nx / len) * 10} ${my + (ny / len) * 10} ${x1} ${y1}`;
          }
          const [xn, yn] = pts.at(-1)!;
          d += P`L${xn} ${yn + 10}Z`;
          return solid(d);
        },
        front: () =>
          strands(
            Array.from({ length: 8 }, (_, i) => {
              const x = cx - 34 + i * 10;
              const y = cy - 54 - (i % 2) * 9 - (i > 1 && i < 6 ? 6 : 0);
              return P`M${x} ${y}a4.5 4.5 0 1 1 7 3.5`;
            }),
          ),
      };
    case 'wavyBack':
      return {
        hairline: (f) =>
          P`C${cx + f.rx} ${cy - 36} ${cx + f.rx * 0.6} ${cy - 48} ${cx + 14} ${cy - 46}Q${cx} ${cy - 42} ${cx - 14} ${cy - 48}C${cx - f.rx * 0.6} ${cy - 48} ${cx - f.rx} ${cy - 36} ${cx - f.rx} ${cy - 18}`,
        back: (f) =>
          solid(
            P`M${cx - f.rx - 4} ${cy - 4}C${cx - f.rx - 10} ${cy - f.ry * 1.36} ${cx - 20} ${cy - f.ry * 1.5} ${cx + 4} ${cy - f.ry * 1.38}C${cx + 22} ${cy - f.ry * 1.5} ${cx + f.rx + 10} ${cy - f.ry * 1.36} ${cx + f.rx + 4} ${cy - 4}Z`,
          ),
        front: () =>
          strands([
            P`M${cx - 30} ${cy - 56}C${cx - 20} ${cy - 70} ${cx - 4} ${cy - 62} ${cx + 6} ${cy - 76}`,
            P`M${cx - 14} ${cy - 50}C${cx - 4} ${cy - 62} ${cx + 14} ${cy - 56} ${cx + 24} ${cy - 70}`,
            P`M${cx + 8} ${cy - 48}C${cx + 20} ${cy - 58} ${cx + 32} ${cy - 52} ${cx + 38} ${cy - 62}`,
          ]),
      };
    case 'bun':
      return {
        hairline: (f) =>
          P`C${cx + f.rx} ${cy - 36} ${cx + f.rx * 0.5} ${cy - 48} ${cx + 6} ${cy - 48}C${cx - f.rx * 0.5} ${cy - 46} ${cx - f.rx} ${cy - 38} ${cx - f.rx} ${cy - 18}`,
        back: (f) =>
          solid(P`M${cx + 40} ${cy - f.ry * 1.02}m-19 0a19 19 0 1 0 38 0a19 19 0 1 0 -38 0`) +
          strands([
            P`M${cx + 28} ${cy - f.ry * 1.02 - 6}Q${cx + 40} ${cy - f.ry * 1.02 - 16} ${cx + 54} ${cy - f.ry * 1.02 - 4}`,
            P`M${cx + 26} ${cy - f.ry * 1.02 + 6}Q${cx + 40} ${cy - f.ry * 1.02 - 4} ${cx + 56} ${cy - f.ry * 1.02 + 8}`,
          ]) +
          solid(dome(f, 3, 1.38, -2)),
        front: (f) =>
          strands([
            P`M${cx + 6} ${cy - 48}Q${cx - 20} ${cy - 60} ${cx - f.rx + 4} ${cy - 38}`,
            P`M${cx + 6} ${cy - 48}Q${cx + 26} ${cy - 62} ${cx + f.rx - 4} ${cy - 38}`,
          ]),
      };
    case 'shoulderSide':
      return {
        hairline: (f) =>
          P`C${cx + f.rx - 6} ${cy - 30} ${cx + 20} ${cy - 38} ${cx - 14} ${cy - 50}C${cx - 24} ${cy - 40} ${cx - f.rx} ${cy - 34} ${cx - f.rx} ${cy - 18}`,
        back: (f) =>
          solid(
            P`M${cx - f.rx - 4} ${cy - 10}C${cx - f.rx - 10} ${cy - f.ry * 1.46} ${cx + f.rx + 10} ${cy - f.ry * 1.46} ${cx + f.rx + 4} ${cy - 10}C${cx + f.rx + 10} ${cy + 30} ${cx + f.rx + 4} ${cy + 72} ${cx + f.rx + 20} ${cy + 98}Q${cx + f.rx} ${cy + 108} ${cx + 22} ${cy + 92}L${cx - 22} ${cy + 92}Q${cx - f.rx} ${cy + 108} ${cx - f.rx - 20} ${cy + 98}C${cx - f.rx - 4} ${cy + 72} ${cx - f.rx - 10} ${cy + 30} ${cx - f.rx - 4} ${cy - 10}Z`,
          ),
        front: (f) =>
          solid(
            P`M${cx + f.rx + 1} ${cy - 22}C${cx + f.rx + 2} ${cy + 10} ${cx + f.rx - 4} ${cy + 30} ${cx + f.rx - 1} ${cy + 50}C${cx + f.rx - 5} ${cy + 24} ${cx + f.rx - 9} ${cy - 6} ${cx + f.rx - 6} ${cy - 28}Z`,
          ) +
          strands([
            P`M${cx - 14} ${cy - 50}Q${cx + 22} ${cy - 52} ${cx + f.rx - 4} ${cy - 24}`,
            P`M${cx - 14} ${cy - 50}Q${cx - 30} ${cy - 60} ${cx - f.rx - 2} ${cy - 24}`,
          ]),
      };
    case 'longStraight':
      return {
        hairline: (f) =>
          P`C${cx + f.rx - 4} ${cy - 30} ${cx + 16} ${cy - 44} ${cx} ${cy - 50}C${cx - 16} ${cy - 44} ${cx - f.rx + 4} ${cy - 30} ${cx - f.rx} ${cy - 18}`,
        back: (f) =>
          solid(
            P`M${cx - f.rx - 6} ${cy - 14}C${cx - f.rx - 10} ${cy - f.ry * 1.46} ${cx + f.rx + 10} ${cy - f.ry * 1.46} ${cx + f.rx + 6} ${cy - 14}C${cx + f.rx + 10} ${cy + 40} ${cx + f.rx + 8} ${cy + 96} ${cx + f.rx + 16} ${cy + 128}L${cx + 28} ${cy + 128}L${cx + 22} ${cy + 94}L${cx - 22} ${cy + 94}L${cx - 28} ${cy + 128}L${cx - f.rx - 16} ${cy + 128}C${cx - f.rx - 8} ${cy + 96} ${cx - f.rx - 10} ${cy + 40} ${cx - f.rx - 6} ${cy - 14}Z`,
          ) +
          strands([
            P`M${cx - f.rx - 8} ${cy + 50}C${cx - f.rx - 8} ${cy + 80} ${cx - f.rx - 6} ${cy + 100} ${cx - f.rx - 2} ${cy + 124}`,
            P`M${cx + f.rx + 8} ${cy + 50}C${cx + f.rx + 8} ${cy + 80} ${cx + f.rx + 6} ${cy + 100} ${cx + f.rx + 2} ${cy + 124}`,
          ]),
        front: (f) =>
          strands([
            P`M${cx} ${cy - 50}Q${cx - 26} ${cy - 42} ${cx - f.rx + 2} ${cy - 10}`,
            P`M${cx} ${cy - 50}Q${cx + 26} ${cy - 42} ${cx + f.rx - 2} ${cy - 10}`,
          ]),
      };
    case 'bobFringe':
      return {
        hairline: (f) =>
          P`C${cx + f.rx} ${cy - 24} ${cx + f.rx - 6} ${cy - 28} ${cx + f.rx - 14} ${cy - 26}Q${cx + 12} ${cy - 22} ${cx - 4} ${cy - 27}Q${cx - 22} ${cy - 22} ${cx - f.rx + 12} ${cy - 27}C${cx - f.rx + 4} ${cy - 28} ${cx - f.rx} ${cy - 24} ${cx - f.rx} ${cy - 18}`,
        back: (f) =>
          solid(
            P`M${cx - f.rx - 8} ${cy - 16}C${cx - f.rx - 10} ${cy - f.ry * 1.48} ${cx + f.rx + 10} ${cy - f.ry * 1.48} ${cx + f.rx + 8} ${cy - 16}C${cx + f.rx + 12} ${cy + 14} ${cx + f.rx + 10} ${cy + 40} ${cx + f.rx + 4} ${cy + 52}Q${cx + f.rx - 8} ${cy + 58} ${cx + f.rx - 16} ${cy + 48}L${cx - f.rx + 16} ${cy + 48}Q${cx - f.rx + 8} ${cy + 58} ${cx - f.rx - 4} ${cy + 52}C${cx - f.rx - 10} ${cy + 40} ${cx - f.rx - 12} ${cy + 14} ${cx - f.rx - 8} ${cy - 16}Z`,
          ),
        front: () =>
          strands([
            P`M${cx - 22} ${cy - 25}L${cx - 18} ${cy - 52}`,
            P`M${cx - 2} ${cy - 27}L${cx} ${cy - 56}`,
            P`M${cx + 18} ${cy - 25}L${cx + 16} ${cy - 52}`,
          ]),
      };
    default:
      throw new Error(`Unknown hair style ${String(style)}`);
  }
}

function beard(kind: Person['beard'], f: Face): string {
  const { rx, ry } = f;
  const my = cy + f.ry * 0.64;
  switch (kind) {
    case 'trimmed':
      return path(
        P`M${cx - rx + 1} ${cy + 8}C${cx - rx + 2} ${cy + 40} ${cx - 20} ${cy + ry * 1.12} ${cx} ${cy + ry * 1.12}C${cx + 20} ${cy + ry * 1.12} ${cx + rx - 2} ${cy + 40} ${cx + rx - 1} ${cy + 8}C${cx + rx - 8} ${cy + 30} ${cx + 16} ${my - 8} ${cx} ${my - 6}C${cx - 16} ${my - 8} ${cx - rx + 8} ${cy + 30} ${cx - rx + 1} ${cy + 8}Z`,
        { fill: C.hairDark, stroke: C.ink, width: 1.8 },
      );
    case 'full':
      return (
        path(
          P`M${cx - rx} ${cy}C${cx - rx + 2} ${cy + 50} ${cx - 24} ${cy + ry * 1.24} ${cx} ${cy + ry * 1.24}C${cx + 24} ${cy + ry * 1.24} ${cx + rx - 2} ${cy + 50} ${cx + rx} ${cy}C${cx + rx - 8} ${cy + 26} ${cx + 16} ${my - 10} ${cx} ${my - 8}C${cx - 16} ${my - 10} ${cx - rx + 8} ${cy + 26} ${cx - rx} ${cy}Z`,
          { fill: C.hairDark, stroke: C.ink, width: 1.8 },
        ) +
        path(P`M${cx - 16} ${cy + 58}q4 6 8 0M${cx + 8} ${cy + 58}q4 6 8 0M${cx - 4} ${cy + 64}q4 6 8 0`, {
          width: 1,
        })
      );
    case 'stubble':
      return `<g fill="${C.line}" opacity="0.8">${Array.from({ length: 40 }, (_, i) => {
        const t = (i % 20) / 19;
        const a = Math.PI * (0.12 + 0.76 * t);
        const k = i < 20 ? 1 : 0.86;
        const x = cx - Math.cos(a) * rx * 0.78 * k;
        const y = cy + 22 + Math.sin(a) * ry * 0.6 * k;
        return `<circle cx="${r(x)}" cy="${r(y)}" r="0.8"/>`;
      }).join('')}</g>`;
    case 'moustache':
      return path(
        P`M${cx - 15} ${my - 1}C${cx - 10} ${my - 9} ${cx - 3} ${my - 8} ${cx} ${my - 5}C${cx + 3} ${my - 8} ${cx + 10} ${my - 9} ${cx + 15} ${my - 1}C${cx + 8} ${my - 4} ${cx + 3} ${my - 3} ${cx} ${my - 3}C${cx - 3} ${my - 3} ${cx - 8} ${my - 4} ${cx - 15} ${my - 1}Z`,
        { fill: C.hairDark, stroke: C.ink, width: 1.5 },
      );
    default:
      return '';
  }
}

function glasses(kind: Person['glasses'], f: Face, p: Person): string {
  if (!kind) return '';
  const ey = cy + (p.eyeY ?? -2);
  const dx = p.eyeDx ?? f.rx * 0.43;
  const lens = (x: number) =>
    kind === 'round'
      ? `<circle cx="${r(x)}" cy="${r(ey)}" r="11" fill="none" stroke="${C.ink}" stroke-width="2"/>`
      : `<rect x="${r(x - 12.5)}" y="${r(ey - 8)}" width="25" height="16" rx="3.5" fill="none" stroke="${C.ink}" stroke-width="2"/>`;
  const half = kind === 'round' ? 11 : 12.5;
  return [
    lens(cx - dx),
    lens(cx + dx),
    path(P`M${cx - dx + half} ${ey - 1}Q${cx} ${ey - 5} ${cx + dx - half} ${ey - 1}`, {
      stroke: C.ink,
      width: 1.8,
    }),
    path(
      P`M${cx - dx - half} ${ey - 2}L${cx - f.rx + 1} ${ey - 5}M${cx + dx + half} ${ey - 2}L${cx + f.rx - 1} ${ey - 5}`,
      { stroke: C.ink, width: 1.6 },
    ),
  ].join('\n');
}

function earrings(on: boolean | undefined, f: Face): string {
  if (!on) return '';
  return [-1, 1]
    .map(
      (s) =>
        `<circle cx="${r(cx + s * (f.rx + 4))}" cy="${cy + 19}" r="3" fill="none" stroke="${C.ink}" stroke-width="1.6"/>`,
    )
    .join('');
}

/** The one orange accent: a height dimension beside the head, as on a drawing. */
function dimension(f: Face, hairTop: number): string {
  const x = 262;
  const y0 = hairTop;
  const y1 = cy + f.ry * 1.02;
  return [
    path(P`M${x - 10} ${y0}H${x + 8}M${x - 10} ${y1}H${x + 8}`, { stroke: C.accent, width: 1 }),
    path(P`M${x} ${y0 + 2}V${y1 - 2}`, { stroke: C.accent, width: 1.3 }),
    path(
      P`M${x - 4} ${y0 + 9}L${x} ${y0 + 2}L${x + 4} ${y0 + 9}M${x - 4} ${y1 - 9}L${x} ${y1 - 2}L${x + 4} ${y1 - 9}`,
      { stroke: C.accent, width: 1.3 },
    ),
    // Centre line through the face, dash-dot as on a drawing.
    path(P`M${cx} 22V${cy - f.ry * 1.5}`, {
      stroke: C.frame,
      width: 1,
      extra: ' stroke-dasharray="10 3 2 3"',
    }),
  ].join('\n');
}

export function portrait(p: Person): string {
  const h = hairStyle(p.hair);
  const f = face(p, h.hairline);
  const parts = [
    background(),
    torso(p),
    h.back ? h.back(f) : '',
    neck(f),
    clothing[p.clothing](),
    path(f.d, { fill: C.skin, stroke: C.ink, width: 2.2 }),
    ears(f),
    beard(p.beard, f),
    features(p, f),
    h.front ? h.front(f) : '',
    glasses(p.glasses, f, p),
    earrings(p.earrings, f),
    dimension(f, cy - f.ry * 1.36),
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${W}" width="${W}" height="${W}">\n${parts.filter(Boolean).join('\n')}\n</svg>\n`;
}

export const people: Record<string, Person> = {
  'milos-kovacevic': {
    hair: 'shortGrey',
    clothing: 'openShirtJacket',
    glasses: 'rect',
    rx: 46,
    ry: 59,
    jaw: 0.88,
    chin: 0.4,
    brow: 2.2,
    smile: 2.5,
  },
  'jelena-markovic': {
    hair: 'shoulderSide',
    clothing: 'blazerRound',
    rx: 42,
    ry: 55,
    jaw: 0.8,
    chin: 0.32,
    brow: 1.5,
    browLift: 1,
    smile: 4.5,
    mouthW: 10,
  },
  'katarina-lukic': {
    hair: 'bun',
    clothing: 'pointedCollar',
    rx: 42,
    ry: 56,
    jaw: 0.8,
    chin: 0.3,
    brow: 1.5,
    smile: 4,
  },
  'vladimir-pavlovic': {
    hair: 'shortDark',
    clothing: 'sweaterShirt',
    beard: 'trimmed',
    rx: 45,
    ry: 57,
    jaw: 0.86,
    chin: 0.38,
    brow: 2.2,
    smile: 3,
  },
  'emir-hodzic': {
    hair: 'closeCrop',
    clothing: 'zipJacket',
    beard: 'full',
    rx: 47,
    ry: 58,
    jaw: 0.9,
    chin: 0.42,
    brow: 2.4,
    smile: 2.5,
  },
  'tamara-nikolic': {
    hair: 'longStraight',
    clothing: 'pointedCollar',
    glasses: 'round',
    rx: 41,
    ry: 55,
    jaw: 0.78,
    chin: 0.3,
    brow: 1.4,
    smile: 4,
  },
  'aleksandar-simic': {
    hair: 'wavyBack',
    clothing: 'turtleneckJacket',
    rx: 44,
    ry: 59,
    jaw: 0.84,
    chin: 0.36,
    brow: 2,
    smile: 3.5,
  },
  'nenad-jovanovic': {
    hair: 'receding',
    clothing: 'shirt',
    beard: 'moustache',
    rx: 47,
    ry: 57,
    jaw: 0.9,
    chin: 0.42,
    brow: 2.2,
    smile: 2,
  },
  'nikola-stankovic': {
    hair: 'curly',
    clothing: 'polo',
    beard: 'stubble',
    rx: 44,
    ry: 56,
    jaw: 0.86,
    chin: 0.38,
    brow: 2,
    smile: 4.5,
  },
  'ivana-petrovic': {
    hair: 'longStraight',
    clothing: 'blazerRound',
    glasses: 'rect',
    earrings: true,
    rx: 42,
    ry: 56,
    jaw: 0.79,
    chin: 0.31,
    brow: 1.5,
    browLift: 0.5,
    smile: 3.5,
    mouthW: 9,
  },
  'dusan-ilic': {
    hair: 'shortDark',
    clothing: 'openShirtJacket',
    beard: 'stubble',
    rx: 46,
    ry: 58,
    jaw: 0.88,
    chin: 0.4,
    brow: 2.3,
    smile: 3,
  },
  'dragan-mitrovic': {
    hair: 'receding',
    clothing: 'sweaterShirt',
    glasses: 'round',
    beard: 'trimmed',
    rx: 48,
    ry: 58,
    jaw: 0.9,
    chin: 0.42,
    brow: 2.4,
    smile: 2.5,
  },
  'ivana-lazic': {
    hair: 'curly',
    clothing: 'roundTop',
    earrings: true,
    rx: 41,
    ry: 55,
    jaw: 0.78,
    chin: 0.3,
    brow: 1.4,
    browLift: 1,
    smile: 5,
    mouthW: 10,
  },
  'sanja-radovic': {
    hair: 'bobFringe',
    clothing: 'roundTop',
    earrings: true,
    rx: 41,
    ry: 54,
    jaw: 0.8,
    chin: 0.3,
    brow: 1.4,
    smile: 5,
  },
};

const out = new URL('../src/assets/team/', import.meta.url);
const ids = process.argv.slice(2);
for (const id of ids.length ? ids : Object.keys(people)) {
  const person = people[id];
  if (!person)
    throw new Error(`No drawing parameters for ${id}; add a row to people in scripts/team-portraits.ts`);
  writeFileSync(new URL(`${id}.svg`, out), portrait(person));
  console.log(`src/assets/team/${id}.svg`);
}
