// The toy standard's step definitions: cucumber loads them beside the package's own (its module's
// stepDefinitions). The tpp client calls the toy's one operation from its catalogue.
import { Then, When } from '@cucumber/cucumber';

interface ToyWorld {
  client: { invoke(operation: string, args: unknown[]): Promise<{ status: number; body: unknown; text: string }> };
  profile?: unknown;
  toyAnswer?: { status: number; body: unknown; text: string };
}

When('the toy bank is asked for its greeting', async function (this: ToyWorld) {
  this.toyAnswer = await this.client.invoke('getGreeting', [{ token: null }]);
});

Then('the toy bank greets with {string}', function (this: ToyWorld, greeting: string) {
  const answer = this.toyAnswer!;
  const said = (answer.body as { greeting?: unknown } | undefined)?.greeting;
  if (answer.status !== 200 || said !== greeting) throw new Error(`TOY-01: expected 200 with greeting "${greeting}", got ${answer.status} ${answer.text}`);
});
