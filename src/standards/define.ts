/** The one way a standard's module is written: its object, typed, its name and catalogue kept literal. */
import type { Catalogue } from '../dialects/operation-spec.ts';
import type { StandardModule } from './standard.ts';

export function defineStandard<const N extends string, const C extends Catalogue>(standard: StandardModule<N, C>): StandardModule<N, C> {
  return standard;
}
