import { applyTheme, contrast, readableOnLight, textOn } from './theme';

describe('theme contrast', () => {
  it('picks the text colour that reads on any brand colour', () => {
    for (const c of ['#6091E2', '#00FFFB', '#FFF8E1', '#0F766E', '#9462E7', '#000000', '#ffffff', '#abc']) {
      expect(contrast(c, textOn(c))).toBeGreaterThanOrEqual(4.5);
    }
    // The default brand blue takes dark text: white on it is 3.2:1.
    expect(contrast('#6091E2', '#ffffff')).toBeLessThan(4.5);
    expect(textOn('#6091E2')).toBe('#111827');
    expect(textOn('#0F766E')).toBe('#ffffff');
  });

  it('darkens a pale brand colour until it reads as text on light surfaces', () => {
    for (const c of ['#6091E2', '#00FFFB', '#FFF8E1', '#9462E7']) {
      const t = readableOnLight(c);
      expect(contrast(t, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrast(t, '#f4f6fb')).toBeGreaterThanOrEqual(4.5);
    }
    expect(readableOnLight('#0F766E')).toBe('#0f766e');
  });

  it('sets the contrast variables with the colours', () => {
    applyTheme({ primary: '#00FFFB' });
    const s = document.documentElement.style;
    expect(s.getPropertyValue('--primary')).toBe('#00FFFB');
    expect(s.getPropertyValue('--on-primary')).toBe('#111827');
    expect(contrast(s.getPropertyValue('--primary-text'), '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});
