import { REGIONS, type Region } from "@vigil/api-contract";

/** City of each region id (the spec's location list), grouped by continent. */
export const REGION_CITIES: Record<Region, { city: string; area: string; free?: boolean }> = {
  jnb: { city: "Johannesburg", area: "Africa", free: true },
  hkg: { city: "Hong Kong", area: "Asia", free: true },
  bom: { city: "Mumbai", area: "Asia" },
  sin: { city: "Singapore", area: "Asia" },
  nrt: { city: "Tokyo", area: "Asia" },
  ams: { city: "Amsterdam", area: "Europe", free: true },
  otp: { city: "Bucharest", area: "Europe" },
  fra: { city: "Frankfurt", area: "Europe" },
  lhr: { city: "London", area: "Europe" },
  mad: { city: "Madrid", area: "Europe" },
  cdg: { city: "Paris", area: "Europe" },
  arn: { city: "Stockholm", area: "Europe" },
  waw: { city: "Warsaw", area: "Europe" },
  iad: { city: "Ashburn", area: "North America", free: true },
  atl: { city: "Atlanta", area: "North America" },
  bos: { city: "Boston", area: "North America" },
  ord: { city: "Chicago", area: "North America" },
  dfw: { city: "Dallas", area: "North America" },
  den: { city: "Denver", area: "North America" },
  gdl: { city: "Guadalajara", area: "North America" },
  lax: { city: "Los Angeles", area: "North America" },
  mia: { city: "Miami", area: "North America" },
  yul: { city: "Montreal", area: "North America" },
  phx: { city: "Phoenix", area: "North America" },
  qro: { city: "Queretaro", area: "North America" },
  sea: { city: "Seattle", area: "North America" },
  sjc: { city: "San Jose", area: "North America" },
  yyz: { city: "Toronto", area: "North America" },
  bog: { city: "Bogota", area: "South America" },
  eze: { city: "Buenos Aires", area: "South America" },
  gig: { city: "Rio de Janeiro", area: "South America" },
  gru: { city: "Sao Paulo", area: "South America", free: true },
  scl: { city: "Santiago", area: "South America" },
  syd: { city: "Sydney", area: "Oceania", free: true },
  private: { city: "Your own network", area: "Other" },
};

export const regionLabel = (r: string) => {
  const c = REGION_CITIES[r as Region];
  return c ? `${c.city} (${r})` : r;
};

/** Region options grouped by area, in the spec's order. */
export function regionGroups(): { area: string; regions: Region[] }[] {
  const groups = new Map<string, Region[]>();
  for (const r of Object.keys(REGION_CITIES) as Region[]) {
    const area = REGION_CITIES[r].area;
    groups.set(area, [...(groups.get(area) ?? []), r]);
  }
  return [...groups].map(([area, regions]) => ({ area, regions }));
}

export const REGION_COUNT = REGIONS.length - 1;
