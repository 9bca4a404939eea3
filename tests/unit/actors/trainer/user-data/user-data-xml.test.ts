import { describe, expect, it } from 'vitest';
import { createDataSources } from '../../../../../actors/trainer/user-data/data-sources.ts';
import { createUserDataStore } from '../../../../../actors/trainer/user-data/user-data-store.ts';
import { fetchUserDataXml, renderUserDataXml } from '../../../../../actors/trainer/user-data/user-data-xml.ts';
import { createFakeStore } from '../../../../support/trainer/trainer-fakes.ts';

const homeGym = {
  id: 'home',
  name: 'Home Gym',
  current_location: true,
  equipment: [
    { name: 'Dumbbells', type: 'free_weights' as const, weights: [5, 10, 15, 20], weight_unit: 'kg' as const },
    { name: 'Pull-up Bar' },
  ],
};

describe('renderUserDataXml', () => {
  it('renders the example of spec 001 §4.4 exactly', () => {
    const xml = renderUserDataXml({
      settings: { weight_unit: 'kg', distance_unit: 'km' },
      profile: { sex: 'male', age: 28, height_cm: 180, weight_kg: 82, body_fat_pct: 15 },
      locations: [{ ...homeGym, current_location: false, id: 'other', name: 'Other' }, homeGym],
    });
    expect(xml).toBe(
      [
        '<user_data>',
        '<unit_preferences>',
        'Weight: kg',
        'Distance: km',
        '</unit_preferences>',
        '',
        '<body_stats>',
        'Sex: male',
        'Age: 28',
        'Height: 180cm',
        'Weight: 82kg',
        'Body Fat: 15%',
        '</body_stats>',
        '',
        '<current_location>',
        'Location: Home Gym',
        'Equipment:',
        '  - Dumbbells (free_weights): 5, 10, 15, 20kg',
        '  - Pull-up Bar',
        '</current_location>',
        '</user_data>',
      ].join('\n'),
    );
  });

  it('leaves out body stats the user never gave and a current location that is not set', () => {
    const xml = renderUserDataXml({
      settings: { weight_unit: 'lb', distance_unit: 'mi' },
      profile: { display_name: 'Sam', age: 40 },
      locations: [{ ...homeGym, current_location: false }],
    });
    expect(xml).toBe(
      '<user_data>\n<unit_preferences>\nWeight: lb\nDistance: mi\n</unit_preferences>\n\n<body_stats>\nAge: 40\n</body_stats>\n</user_data>',
    );
    expect(
      renderUserDataXml({ settings: { weight_unit: 'kg', distance_unit: 'km' }, profile: {}, locations: [] }),
    ).not.toContain('<body_stats>');
  });
});

describe('fetchUserDataXml', () => {
  it('reads the stable prefix sources afresh on every call', async () => {
    const userData = createUserDataStore(createFakeStore());
    const sources = createDataSources({ userData });
    expect(await fetchUserDataXml(sources, 'alice')).toContain('Weight: kg');
    await userData.put('alice', 'user_settings', { weight_unit: 'lb' });
    await userData.put('alice', 'user_profile', { weight_kg: 70.5 });
    await userData.put('alice', 'all_locations', { locations: [homeGym] });
    const xml = await fetchUserDataXml(sources, 'alice');
    expect(xml).toContain('Weight: lb');
    expect(xml).toContain('<body_stats>\nWeight: 70.5kg\n</body_stats>');
    expect(xml).toContain('Location: Home Gym');
    expect(await fetchUserDataXml(sources, 'bob')).not.toContain('Home Gym');
  });
});
